#!/usr/bin/env node
// Compiles many schemas with the npm kaitai-struct-compiler in ONE node process
// (its start-up and the compiler's load cost ~1 s, so one process per schema
// would dominate). Unlike generator/kaitai/compile.js, one schema's error does
// not discard the others: every main file gets its own result.
// stdin:  {"target": "python", "files": {"formats/x.ksy": <parsed YAML>, ...},
//          "main": ["formats/x.ksy", ...], "import_dirs": ["formats/ks_path", ...]}
// stdout: one JSON line per main file, as each is done (pipes are synchronous on
// Linux, so the lines written survive a crash of the compiler on a later file:
// some malformed schemas end the Scala.js program with an UndefinedBehaviorError):
//   {"file": "formats/x.ksy", "ok": true, "outputs": {"x.py": "..."}, "ms": N}
//   {"file": "formats/x.ksy", "ok": false, "error": "...", "ms": N}
'use strict';
const posix = require('path').posix;
const realWrite = process.stdout.write.bind(process.stdout);
console.log = console.info = console.warn = console.debug = console.error;

function errMessage(err) {
  const msg = err && err.message ? String(err.message) : String(err);
  const cls = err && err.$classData && err.$classData.name;
  if (cls && !cls.endsWith('.CompilationProblemException')) return `${cls.split('.').pop()}: ${msg}`;
  return msg;
}

// importYaml(name, mode): "rel" names come joined with the importing file's
// folder, relative to the compiled file's folder; "abs" names are looked up in
// the import folders (and, for a relative import inside an abs-imported file,
// arrive as "abs" already joined).
function makeImporter(files, mainFile, importDirs) {
  const baseDir = posix.dirname(mainFile);
  return {
    importYaml(name, mode) {
      const candidates = mode === 'abs'
        ? importDirs.map((d) => posix.normalize(posix.join(d, name)) + '.ksy')
        : [posix.normalize(posix.join(baseDir, name)) + '.ksy'];
      for (const key of candidates) {
        if (Object.prototype.hasOwnProperty.call(files, key)) return Promise.resolve(structuredClone(files[key]));
      }
      return Promise.reject(new Error(`${mainFile}: import '${name}' (${mode}): ${candidates.join(', ')} not found`));
    },
  };
}

async function run(req) {
  const compiler = require('kaitai-struct-compiler');
  const { target = 'python', files, main, import_dirs: importDirs = [] } = req;
  for (const file of main) {
    const t0 = Date.now();
    let doc;
    try {
      const out = await compiler.compile(target, structuredClone(files[file]),
        makeImporter(files, file, importDirs), false);
      doc = { file, ok: true, outputs: out };
    } catch (e) {
      doc = { file, ok: false, error: errMessage(e) };
    }
    doc.ms = Date.now() - t0;
    realWrite(JSON.stringify(doc) + '\n');
  }
}

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => { input += c; });
process.stdin.on('end', () => {
  run(JSON.parse(input)).catch((e) => {
    realWrite(JSON.stringify({ fatal: errMessage(e) }) + '\n');
    process.exitCode = 1;
  });
});
