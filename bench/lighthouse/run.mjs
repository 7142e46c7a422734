// Picks one page per page type and language from the built tree, runs
// Lighthouse's mobile preset (the default config: Moto G Power emulation,
// simulated slow 4G and 4x CPU throttling) on each in Debian's chromium, and
// prints a Markdown table. Called by run.sh, which builds and serves the site.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const here = fileURLToPath(new URL('.', import.meta.url));

const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  if (i < 0) return '';
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const base = opt('--base');
const root = opt('--root');
const reports = opt('--reports');
const only = args; // page types to run (default all)
const runs = Math.max(1, Number(process.env.LH_RUNS || 1));

const chromeFlags = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--disable-background-networking',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
].join(' ');

// The page type of a built page: its layout (body class), with posts told
// apart by section and the error pages by name.
function pageType(path, html) {
  const m = /<body class="layout-([a-z0-9-]+) page-([a-z0-9-]+)/.exec(html);
  if (!m) return null;
  const [, layout, name] = m;
  if (layout === 'post') return /\/devblog\//.test(path) ? 'post-devblog' : 'post-blog';
  if (layout === 'error') return name === '404' && /^\/(pl|en)\/404\.html$/.test(path) ? 'error-404' : null;
  if (layout === 'investors') return name === 'investors' ? 'investors' : name === 'investors-reports' ? 'investors-reports' : null;
  if (layout === 'blog') return name === 'blog' ? 'blog-list' : null;
  if (layout === 'page') return name === 'about' ? 'page' : name === 'team' ? 'team' : null;
  if (layout === 'solution') return name === 'solution-sales' ? 'solution' : null;
  if (layout === 'product') return name === 'product-hirebot' ? 'product' : null;
  if (layout === 'technology') return name === 'tech-platform' ? 'technology' : null;
  if (layout === 'message') return name === 'thanks' ? 'message' : null;
  return layout;
}

const ORDER = ['home', 'solution', 'product', 'technology', 'pricing', 'page', 'team', 'contact', 'investors', 'investors-reports', 'blog-list', 'post-blog', 'post-devblog', 'message', 'error-404'];

function walk(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.name.endsWith('.html')) out.push(p);
  }
  return out;
}

function pickPages() {
  const picked = new Map(); // "type lang" -> path
  for (const lang of ['pl', 'en']) {
    for (const file of walk(join(root, lang)).sort()) {
      const rel = '/' + relative(root, file).split(sep).join('/');
      const path = rel.endsWith('/index.html') ? rel.slice(0, -'index.html'.length) : rel;
      const html = readFileSync(file, 'utf8');
      if (/http-equiv="refresh"/.test(html)) continue; // alias pages
      const type = pageType(path, html);
      if (!type || (only.length && !only.includes(type))) continue;
      const key = type + ' ' + lang;
      if (!picked.has(key)) picked.set(key, path);
    }
  }
  const order = (k) => ORDER.indexOf(k.split(' ')[0]) * 2 + (k.endsWith(' en') ? 1 : 0);
  return [...picked.entries()].sort((a, b) => order(a[0]) - order(b[0])).map(([, p]) => p);
}

const METRICS = {
  'first-contentful-paint': 'FCP',
  'largest-contentful-paint': 'LCP',
  'total-blocking-time': 'TBT',
  'cumulative-layout-shift': 'CLS',
  'speed-index': 'SI',
};

async function lighthouse(url, out) {
  await run(
    join(here, 'node_modules', '.bin', 'lighthouse'),
    [url, '--only-categories=performance,seo', '--output=json', '--output-path=' + out, '--quiet', '--chrome-flags=' + chromeFlags, ...(process.env.LH_TRACE ? ['--save-assets'] : [])],
    { maxBuffer: 64 << 20 },
  );
  const lhr = JSON.parse(readFileSync(out, 'utf8'));
  if (lhr.runtimeError) throw new Error(url + ': ' + lhr.runtimeError.code + ' ' + lhr.runtimeError.message);
  const perf = lhr.categories.performance;
  const seo = lhr.categories.seo;
  const seoFailing = seo.auditRefs
    .map((r) => lhr.audits[r.id])
    .filter((a) => a && a.score !== null && a.score < 1 && !['informative', 'notApplicable', 'manual'].includes(a.scoreDisplayMode))
    .map((a) => 'seo:' + a.id);
  const ids = new Set(perf.auditRefs.map((r) => r.id));
  const failing = [...ids]
    .filter((id) => !METRICS[id])
    .map((id) => lhr.audits[id])
    .filter((a) => a && a.score !== null && a.score < 1 && !['informative', 'notApplicable', 'manual'].includes(a.scoreDisplayMode))
    .map((a) => a.id + (a.displayValue ? ' (' + a.displayValue.replace(/\s+/g, ' ') + ')' : ''));
  const lcpEl = lhr.audits['largest-contentful-paint-element'];
  const lcpItem = lcpEl && lcpEl.details && lcpEl.details.items && lcpEl.details.items[0];
  const node = lcpItem && lcpItem.items && lcpItem.items[0] && lcpItem.items[0].node;
  return {
    score: Math.round(perf.score * 100),
    seo: Math.round(seo.score * 100),
    metrics: Object.fromEntries(Object.keys(METRICS).map((id) => [id, lhr.audits[id].numericValue])),
    failing: [...failing, ...seoFailing],
    lcp: node ? node.nodeLabel || node.selector : '',
    bi: Math.round(lhr.environment.benchmarkIndex),
  };
}

const fmtMs = (v) => (v / 1000).toFixed(2) + ' s';
const fmt = (id, v) => (id === 'cumulative-layout-shift' ? v.toFixed(3) : id === 'total-blocking-time' ? Math.round(v) + ' ms' : fmtMs(v));
const cell = (s) => String(s).replace(/\|/g, '\\|').replace(/\s+/g, ' ');

mkdirSync(reports, { recursive: true });
const pages = pickPages();
if (!pages.length) throw new Error('no pages picked (types: ' + (only.join(', ') || 'all') + ')');
const rows = [];
for (const p of pages) {
  const results = [];
  for (let i = 0; i < runs; i++) {
    const out = join(reports, p.replace(/[^a-z0-9]+/gi, '_') + '-' + i + '.json');
    process.stderr.write(`lighthouse: ${p} (run ${i + 1}/${runs})\n`);
    // The load average over the last minute as the run starts: other work
    // on the machine slows the trace Lighthouse simulates from (TBT).
    const load = loadavg()[0];
    results.push({ ...(await lighthouse(base + p, out)), load });
  }
  // The median run by performance score (then LCP).
  results.sort((a, b) => a.score - b.score || b.metrics['largest-contentful-paint'] - a.metrics['largest-contentful-paint']);
  rows.push([p, results[Math.floor((results.length - 1) / 2)]]);
}

// BI is Lighthouse's benchmark index of the machine during the run: a
// loaded machine (BI far below ~2000 here) inflates TBT and the simulated
// CPU work; rerun such rows (LH_RUNS=3 takes the median).
const head = ['page', 'perf', 'SEO', ...Object.values(METRICS), 'BI', 'load', 'failing audits', 'LCP element'];
console.log('| ' + head.join(' | ') + ' |');
console.log('|' + head.map(() => '---').join('|') + '|');
for (const [p, r] of rows) {
  console.log(
    '| ' +
      [p, r.score, r.seo, ...Object.keys(METRICS).map((id) => fmt(id, r.metrics[id])), r.bi, r.load.toFixed(2), r.failing.join(', ') || '–', r.lcp.slice(0, 60)].map(cell).join(' | ') +
      ' |',
  );
}
const worst = Math.min(...rows.map(([, r]) => r.score));
const worstSEO = Math.min(...rows.map(([, r]) => r.seo));
console.log(`\n${rows.length} pages, lighthouse 12.8.2 mobile preset, ${runs} run(s) each (median); lowest performance ${worst}, lowest SEO ${worstSEO}`);
