// The runtime's core journeys in Firefox (RUNTIME.md), over WebDriver BiDi
// with puppeteer-core: a swap and back with the announcer, a 404 swap,
// prefetch off for Save-Data, the island loader's retry, and the form with
// JavaScript. (The form without JavaScript is tested in Chromium only:
// Firefox 153's BiDi has no emulation.setScriptingEnabled, with the
// javascript.enabled pref off script.callFunction never answers, its key
// actions do not tick a checkbox (seen with scripts on too), and pointer
// clicks at positions read from a scripted page missed the fields.) Run by TestFirefox (firefox_test.go), which
// builds the site, serves it and answers /__sitetest/… (faults, request
// log, stored form posts).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';

const base = process.env.SITETEST_BASE;
const firefox = process.env.SITETEST_FIREFOX;
const { default: puppeteer } = await import(
  pathToFileURL(process.env.SITETEST_PUPPETEER + '/lib/esm/puppeteer/puppeteer-core.js').href
);

// Waits are generous: a loaded 2-core CI machine runs builds beside this.
const BUDGET = 30000;

// What the runtime did, recorded in the page (as the Chromium tests'
// navRecorder): its navigations and every text of the announcer.
const recorder = () => {
  if (window.__rt) return;
  const rec = { navs: [], announced: [], last: '' };
  Object.defineProperty(window, '__rt', { value: rec });
  addEventListener('sg:navigated', (e) => rec.navs.push(e.detail.path));
  new MutationObserver(() => {
    const a = document.getElementById('sg-announcer');
    if (a && a.textContent !== rec.last) rec.announced.push((rec.last = a.textContent));
  }).observe(document, { subtree: true, childList: true, characterData: true });
};

async function ctl(path) {
  const res = await fetch(base + '/__sitetest/' + path, { method: path.startsWith('fault') || path === 'clear' ? 'POST' : 'GET' });
  assert.equal(res.status, 200, 'control ' + path);
  return res.json();
}
const requests = (since, sub) => ctl(`requests?since=${since}&sub=${encodeURIComponent(sub)}`);

let browser;
before(async () => {
  browser = await puppeteer.launch({ browser: 'firefox', executablePath: firefox, headless: true, protocol: 'webDriverBiDi', timeout: 120000 });
});
after(async () => {
  if (browser) await browser.close();
});

// open gives a page in a fresh browser context (nothing stored, no cache
// shared with another journey), with the recorder, console errors kept,
// and the consent choice stored when given.
async function open(t, { consent } = {}) {
  const ctx = await browser.createBrowserContext();
  t.after(() => ctx.close());
  const page = await ctx.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e && e.message)));
  await page.evaluateOnNewDocument(recorder);
  if (consent) {
    await page.evaluateOnNewDocument((c) => {
      if (location.protocol === 'http:') localStorage.setItem('sg-consent', c);
    }, consent);
  }
  page.errors = errors;
  page.close = () => ctx.close();
  return page;
}

// clickLink puts a link to href at the top of the viewport and clicks it as
// a visitor does (a real pointer click through the protocol).
async function clickLink(page, href) {
  await page.evaluate((href) => {
    document.getElementById('rt-link-box')?.remove();
    const box = document.createElement('div');
    box.id = 'rt-link-box';
    box.style.cssText = 'position:fixed;top:120px;left:20px;z-index:9999;background:#fff';
    const a = Object.assign(document.createElement('a'), { id: 'rt-link', href, textContent: 'test link' });
    a.style.cssText = 'display:inline-block;padding:8px';
    box.append(a);
    document.querySelector('main').prepend(box);
  }, href);
  await page.click('#rt-link');
}

const waitNav = (page, n, path) =>
  page.waitForFunction((n, path) => window.__rt.navs.length >= n && window.__rt.navs[n - 1] === path, { timeout: BUDGET }, n, path);

const loaded = (page) => page.waitForFunction(() => document.documentElement.dataset.sgBuild, { timeout: BUDGET });

const h1 = (page) => page.evaluate(() => document.querySelector('main h1').textContent.trim());

// First, before any journey puts the loader into a cache.
test('the island loader answering 503 once is fetched again and hydrates', async (t) => {
  await ctl('fault?sub=/islands/loader&status=503&times=1');
  t.after(() => ctl('clear'));
  const page = await open(t);
  const m = await ctl('mark');
  await page.goto(base + '/en/about-us/contact/');
  await page
    .waitForFunction(() => document.querySelector('sg-island[data-island="ConsentBanner"][data-hydrated]'), { timeout: BUDGET })
    .catch(async (e) => {
      throw new Error(`${e.message}; loader requests ${await requests(m, '/islands/loader')}; console errors ${page.errors}`);
    });
  const asked = await requests(m, '/islands/loader');
  assert.equal(asked.length, 2, `the loader was asked ${asked.length} times (${asked}), want 2: one 503, one retry`);
  assert.match(asked[1], /[?&]sg-retry=1\b/, 'the retry asks for a new URL (a failed module stays failed in the module map)');
});

test('a swap and back, with the announcer', async (t) => {
  const page = await open(t, { consent: 'reject' });
  await page.goto(base + '/en/');
  await loaded(page);
  const m = await ctl('mark');
  await clickLink(page, '/en/grants/');
  await waitNav(page, 1, '/en/grants/');
  assert.equal(new URL(page.url()).pathname, '/en/grants/');
  assert.deepEqual((await requests(m, '/en/grants/')).filter((r) => r === 'GET /en/grants/'), [], 'a swap loads no document');
  const title = await h1(page);
  await page.waitForFunction((t) => window.__rt.announced.at(-1) === 'Navigated to ' + t, { timeout: BUDGET }, title);
  assert.equal(await page.evaluate(() => document.activeElement.tagName), 'MAIN', 'focus moves to the new content');
  await page.goBack();
  await waitNav(page, 2, '/en/');
  assert.deepEqual((await requests(m, '/en/')).filter((r) => r === 'GET /en/'), [], 'back is a swap too');
  assert.deepEqual(page.errors, []);
});

test('a missing page swaps to the 404 page', async (t) => {
  const page = await open(t, { consent: 'reject' });
  await page.goto(base + '/en/');
  await loaded(page);
  const m = await ctl('mark');
  await clickLink(page, '/en/no-such-page/');
  await waitNav(page, 1, '/en/no-such-page/');
  assert.equal(await h1(page), 'There seems to be nothing here...');
  const asked = await requests(m, 'no-such-page');
  assert.ok(asked.includes('GET /page-data/en/no-such-page/page-data.json'), `requests ${asked}`);
  assert.ok(asked.includes('HEAD /en/no-such-page/'), `the runtime asks whether the HTML exists: ${asked}`);
  assert.ok(!asked.includes('GET /en/no-such-page/'), 'no full load');
  assert.equal(new URL(page.url()).pathname, '/en/no-such-page/', 'the address stays');
});

test('prefetch: Firefox has no navigator.connection; Save-Data turns it off', async (t) => {
  // Firefox has no Network Information API: the page cannot see Save-Data
  // or a 2g network, so the runtime keeps prefetch on (its switch reads
  // navigator.connection, RUNTIME.md "Prefetch"): the degradation the spec
  // allows.
  {
    const page = await open(t, { consent: 'reject' });
    await page.goto(base + '/en/');
    await loaded(page);
    assert.equal(await page.evaluate(() => 'connection' in navigator), false, 'this Firefox now has navigator.connection: test it directly');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.sgPrefetch), '3000,4,3000');
    t.diagnostic('Firefox: no navigator.connection, prefetch stays on');
    await page.close(); // its prefetch must not count below
  }
  // Where a browser reports Save-Data, prefetch is off: hover loads
  // nothing, the click is the first request.
  const page = await open(t, { consent: 'reject' });
  await page.evaluateOnNewDocument(() => {
    Object.defineProperty(Navigator.prototype, 'connection', {
      configurable: true,
      get: () => ({ effectiveType: '4g', saveData: true, addEventListener() {}, removeEventListener() {} }),
    });
  });
  await page.goto(base + '/en/');
  await loaded(page);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.sgPrefetch), 'off');
  const m = await ctl('mark');
  await clickLink(page, '/en/grants/');
  await waitNav(page, 1, '/en/grants/');
  const asked = await requests(m, '/page-data/en/');
  assert.deepEqual(asked, ['GET /page-data/en/grants/page-data.json'], `with prefetch off only the click loads page data: ${asked}`);
});

async function form(lang) {
  return ctl('form?lang=' + lang);
}

async function fill(page, info, tag) {
  const email = `anna.ff-${tag}.${Date.now()}@example.com`;
  const vals = { name: 'Anna', companyName: 'Testowa sp. z o.o.', email, phone: '+48 600 100 200' };
  for (const f of info.fields) {
    if (vals[f] === undefined) continue;
    await page.type('#demo-form-' + f, vals[f]);
  }
  for (const c of info.consents) await page.click('#demo-form-' + c);
  return email;
}

test('the form with JavaScript', async (t) => {
  const info = await form('en');
  const page = await open(t, { consent: 'accept' });
  await page.goto(base + '/en/about-us/contact/#demo-form');
  await page.waitForFunction(
    () => document.querySelector('sg-island[data-island="DemoForm"][data-hydrated]') && document.getElementById('demo-form').noValidate,
    { timeout: BUDGET },
  );
  const email = await fill(page, info, 'js');
  // An invalid address: the island says so next to the field, sends nothing.
  await page.evaluate(() => {
    const el = document.getElementById('demo-form-email');
    el.value = 'anna@example';
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.click('.demo-form__submit');
  await page.waitForFunction(() => document.getElementById('demo-form-email-error'), { timeout: BUDGET });
  assert.equal(await page.evaluate(() => document.getElementById('demo-form-email').getAttribute('aria-invalid')), 'true');
  assert.equal(await ctl('stored?email=anna@example'), 0);
  await page.evaluate((v) => {
    const el = document.getElementById('demo-form-email');
    el.value = v;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, email);
  await page.click('.demo-form__submit');
  await page.waitForFunction((p) => location.pathname === p, { timeout: BUDGET }, info.thanks);
  assert.equal(await ctl('stored?email=' + encodeURIComponent(email)), 1);
  assert.deepEqual(page.errors, []);
});
