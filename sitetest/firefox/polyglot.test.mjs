// The polyglot fixture (English, German, Japanese with Japanese slugs) in
// Firefox, over WebDriver BiDi with puppeteer-core: a swap to a Japanese
// page with a percent-encoded address and back, its 404, an alias, and
// the search island finding a Japanese post by a Japanese word. Run by
// TestFirefoxPolyglot (polyglot_browser_test.go), which builds the fixture
// with the repository's client runtime and serves it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';

const base = process.env.SITETEST_BASE;
const firefox = process.env.SITETEST_FIREFOX;
const { default: puppeteer } = await import(
  pathToFileURL(process.env.SITETEST_PUPPETEER + '/lib/esm/puppeteer/puppeteer-core.js').href
);

const BUDGET = 30000;

const recorder = () => {
  if (window.__rt) return;
  const rec = { navs: [] };
  Object.defineProperty(window, '__rt', { value: rec });
  addEventListener('sg:navigated', (e) => rec.navs.push(decodeURIComponent(e.detail.path)));
};

let browser;
before(async () => {
  browser = await puppeteer.launch({ browser: 'firefox', executablePath: firefox, headless: true, protocol: 'webDriverBiDi', timeout: 120000 });
});
after(async () => {
  if (browser) await browser.close();
});

async function open(t) {
  const ctx = await browser.createBrowserContext();
  t.after(() => ctx.close());
  const page = await ctx.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e && e.message)));
  await page.evaluateOnNewDocument(recorder);
  page.errors = errors;
  return page;
}

const ready = (page) =>
  page.waitForFunction(() => document.documentElement.dataset.sgBuild && !document.querySelector('sg-island:not([data-hydrated])'), { timeout: BUDGET });

const waitNav = (page, n, path) =>
  page.waitForFunction((n, path) => window.__rt.navs.length >= n && window.__rt.navs[n - 1] === path, { timeout: BUDGET }, n, path);

// What the page shows: its decoded path, language, title and h1.
const shows = (page) =>
  page.evaluate(() => [decodeURIComponent(location.pathname), document.documentElement.lang, document.title, document.querySelector('main h1').textContent].join('|'));

test('a swap from English to a Japanese page and back', async (t) => {
  const page = await open(t);
  await page.goto(base + '/en/blog/');
  await ready(page);
  await page.click('header .lang-switch a[hreflang=ja]');
  await waitNav(page, 1, '/ja/ブログ/');
  assert.equal(await shows(page), '/ja/ブログ/|ja|ブログ | Polyglot Engineering|ブログ');
  assert.equal(new URL(page.url()).pathname.toLowerCase(), encodeURI('/ja/ブログ/').toLowerCase(), 'the address is percent-encoded');
  await page.goBack();
  await waitNav(page, 2, '/en/blog/');
  assert.equal(await shows(page), '/en/blog/|en|Blog | Polyglot Engineering|Blog');
  assert.equal(await page.evaluate(() => performance.getEntriesByType('navigation').length), 1, 'no document was loaded after the first');
  assert.deepEqual(page.errors, []);
});

test('a missing Japanese page is the Japanese 404 page', async (t) => {
  const page = await open(t);
  const res = await page.goto(base + encodeURI('/ja/ブログ/存在しない/'));
  assert.equal(res.status(), 404);
  assert.equal(await page.evaluate(() => document.documentElement.lang + '|' + document.title), 'ja|ページが見つかりません | Polyglot Engineering');
});

test('the alias /ja/日記 leads to the Japanese blog', async (t) => {
  const page = await open(t);
  const res = await page.goto(base + encodeURI('/ja/日記'));
  assert.equal(res.status(), 200);
  assert.equal(await shows(page), '/ja/ブログ/|ja|ブログ | Polyglot Engineering|ブログ');
});

test('the search island finds a Japanese post and goes to it', async (t) => {
  const page = await open(t);
  await page.goto(base + '/ja/');
  await ready(page);
  const indexes = () => page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/search.json')).map((e) => new URL(e.name).pathname));
  assert.deepEqual(await indexes(), [], 'no index before the box has focus');
  await page.click('#search-q');
  await page.type('#search-q', 'ウォーム');
  await page.waitForFunction(() => document.getElementById('search-status').textContent === '1 件のページが見つかりました。', { timeout: BUDGET });
  assert.deepEqual(await indexes(), ['/ja/search.json']);
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => decodeURIComponent(new URL(document.activeElement.href).pathname)), '/ja/ブログ/ウォームビルド/');
  await page.keyboard.press('Enter');
  await waitNav(page, 1, '/ja/ブログ/ウォームビルド/');
  assert.equal(await shows(page), '/ja/ブログ/ウォームビルド/|ja|ウォームビルド | Polyglot Engineering|ウォームビルド');
  assert.deepEqual(page.errors, []);
});
