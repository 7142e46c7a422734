// Validates JSON documents against a JSON Schema (draft-07) with Ajv, the
// validator html-validate already brings (package-lock.json), and prints one
// JSON array of the errors found:
//   node sitetest/testdata/jsonschema.mjs SCHEMA.json < [{"file": ..., "data": ...}, ...]
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const Ajv = require("ajv").default;

const schema = JSON.parse(readFileSync(process.argv[2], "utf8"));
const ajv = new Ajv({ allErrors: true, strictTypes: false });
const validate = ajv.compile(schema);
const docs = JSON.parse(readFileSync(0, "utf8"));
const errors = [];
for (const { file, data } of docs) {
  if (!validate(data)) {
    for (const e of validate.errors) {
      errors.push({ file, path: e.instancePath, message: e.message, params: e.params });
    }
  }
}
process.stdout.write(JSON.stringify(errors));
