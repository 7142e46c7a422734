// Reads an output folder's _redirects and _headers with Netlify's own
// parsers and prints what they understood as JSON (internal/hosttest.Netlify
// checks it): {"redirects": [...], "headers": [...], "errors": [...]}.
import { parseAllRedirects } from '@netlify/redirect-parser'
import { parseAllHeaders } from '@netlify/headers-parser'
import { join } from 'node:path'

const out = process.argv[2]
if (!out) {
  console.error('usage: node netlify-read.mjs OUTPUT_FOLDER')
  process.exit(2)
}
const r = await parseAllRedirects({ redirectsFiles: [join(out, '_redirects')], minimal: true })
const h = await parseAllHeaders({ headersFiles: [join(out, '_headers')], minimal: true })
const errors = [...r.errors, ...h.errors].map((e) => String(e.message || e))
process.stdout.write(JSON.stringify({
  redirects: r.redirects.map((x) => ({ from: x.from, to: x.to, status: x.status, force: x.force })),
  headers: h.headers.map((x) => ({ for: x.for, values: x.values })),
  errors,
}))
