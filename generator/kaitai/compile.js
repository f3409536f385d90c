#!/usr/bin/env node
// Drives the JS API of kaitai-struct-compiler 0.11 (the npm build has no CLI).
// Protocol: ONE JSON document on stdin
//   {"target": "python", "debug": false,
//    "files": {"kafka/x.ksy": <parsed YAML>, ...}, "main": ["kafka/x.ksy", ...]}
// and ONE JSON document on stdout:
//   {"ok": true, "outputs": {"x.py": "<source>", ...}}              exit 0
//   {"ok": false, "errors": [{"file": ..., "message": ...}, ...]}   exit 1
// The Python side parses the YAML, so no YAML library is needed here.
'use strict';
const posix = require('path').posix;

// Keep stdout for our single JSON document: anything the compiler (or a
// library) prints goes to stderr instead.
const realWrite = process.stdout.write.bind(process.stdout);
console.log = console.info = console.warn = console.debug = console.error;

let done = false;
function finish(doc) {
  if (done) return; // never emit two documents
  done = true;
  process.exitCode = doc.ok ? 0 : 1;
  realWrite(JSON.stringify(doc) + '\n');
}
const fail = (file, err) =>
  finish({ ok: false, errors: [{ file, message: errMessage(err) }] });
process.on('uncaughtException', (e) => fail(null, e));
process.on('unhandledRejection', (e) => fail(null, e));

// Scala.js exceptions are JS Errors. A CompilationProblemException's message
// carries file and YAML path, e.g. "(main): /seq/1/type:\n\terror: unable to
// find type 'foo'..." ("(main)" = the compiled file, else the import name).
// Others (e.g. TypeUndecidedError, message just "timestamp") need the class
// name to make sense, so it is prepended.
function errMessage(err) {
  const msg = err && err.message ? String(err.message) : String(err);
  const cls = err && err.$classData && err.$classData.name;
  if (cls && !cls.endsWith('.CompilationProblemException')) {
    return `${cls.split('.').pop()}: ${msg}`;
  }
  return msg;
}

// The compiler calls importYaml(name, mode) with the import path WITHOUT
// ".ksy": mode "abs" for "/common/vlq" (name "common/vlq", leading slash
// stripped), mode "rel" for "../common/vlq". Relative names arrive already
// joined with the directory of the importing file, but relative to the
// directory of the file passed to compile(), so we resolve them from there
// (a relative import inside an abs-imported file arrives as "abs").
function makeImporter(files, mainFile) {
  const baseDir = posix.dirname(mainFile);
  return {
    importYaml(name, mode) {
      const joined = mode === 'abs' ? name : posix.join(baseDir, name);
      const key = posix.normalize(joined) + '.ksy';
      if (key.startsWith('../') || !Object.prototype.hasOwnProperty.call(files, key)) {
        return Promise.reject(new Error(
          `${mainFile}: import '${name}' (${mode}) -> '${key}' not found in files`));
      }
      // The compiler gets its own copy so one compilation cannot affect another.
      return Promise.resolve(structuredClone(files[key]));
    },
  };
}

async function run(req) {
  const compiler = require('kaitai-struct-compiler');
  const { target = 'python', debug = false, files, main } = req;
  if (!files || typeof files !== 'object' || !Array.isArray(main)) {
    throw new Error('request needs "files" (object) and "main" (array)');
  }
  // An unknown target would otherwise fail with a bare "key not found: x".
  if (!compiler.languages.includes(target)) {
    throw new Error(`unknown target '${target}'; compiler ${compiler.version} knows: ${compiler.languages.join(', ')}`);
  }
  const outputs = {};
  const errors = [];
  // One at a time: the compiler is a single shared object.
  for (const file of main) {
    if (!Object.prototype.hasOwnProperty.call(files, file)) {
      errors.push({ file, message: `${file}: not in files` });
      continue;
    }
    try {
      const out = await compiler.compile(target, structuredClone(files[file]),
        makeImporter(files, file), !!debug);
      // Output includes every imported spec too; the same name from two
      // mains must be the same text, else the package would be inconsistent.
      for (const [name, src] of Object.entries(out)) {
        if (name in outputs && outputs[name] !== src) {
          errors.push({ file, message: `${file}: output ${name} differs from an earlier one` });
        }
        outputs[name] = src;
      }
    } catch (e) {
      errors.push({ file, message: errMessage(e) });
    }
  }
  return errors.length ? { ok: false, errors } : { ok: true, outputs };
}

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => { input += c; });
process.stdin.on('end', () => {
  let req;
  try {
    req = JSON.parse(input);
  } catch (e) {
    return fail(null, new Error(`stdin is not one JSON document: ${errMessage(e)}`));
  }
  run(req).then(finish, (e) => fail(null, e));
});
