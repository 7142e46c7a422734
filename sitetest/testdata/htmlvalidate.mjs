// Validates every .html file under a folder with html-validate (the pinned
// npm package) and prints one JSON array of the errors found:
//   node sitetest/testdata/htmlvalidate.mjs CONFIG.mjs DIR
// It calls the package's API rather than its CLI: the CLI expands file
// arguments with fs.globSync, which the Node of Debian stable lacks.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { HtmlValidate, StaticConfigLoader } from "html-validate";

const [configFile, root] = process.argv.slice(2);
const config = (await import(pathToFileURL(resolve(configFile)).href)).default;
const hv = new HtmlValidate(new StaticConfigLoader(config));

function* walk(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else if (e.name.endsWith(".html")) yield p;
  }
}

const errors = [];
let files = 0;
for (const file of [...walk(root)].sort()) {
  files++;
  const report = await hv.validateString(readFileSync(file, "utf8"), file);
  for (const r of report.results) {
    for (const m of r.messages) {
      if (m.severity === 2) {
        errors.push({ file: relative(root, file), line: m.line, column: m.column, rule: m.ruleId, message: m.message });
      }
    }
  }
}
process.stdout.write(JSON.stringify({ files, errors }) + "\n");
