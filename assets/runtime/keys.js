// Every name the site's own code stores in the browser. The cookie policy
// pages (content/*/polityka-cookies.md, cookies-policy.md) list exactly these;
// sitetest compares the lists, and the browser tests check that nothing else
// is stored. Third-party tags (loaded only after consent) set their own
// cookies, which the policy lists separately.
export const LOCAL = { consent: 'sg-consent' }; // set by the ConsentBanner island
export const SESSION = { scroll: 'sg-scroll', reload: 'sg-reload' };
export const CACHES = { pages: 'sg-pages', assets: 'sg-assets' };
