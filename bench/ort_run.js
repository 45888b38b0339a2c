// Times an ONNX model with ONNX Runtime's CPU build (npm onnxruntime-node).
//
//   node ort_run.js MODEL OUTDIR THREADS RUNS BUDGET INPUT.npy...
//
// For each thread count in THREADS (comma-separated) it creates a session with
// that many intra-op threads, runs the model once to warm up and RUNS more
// times (fewer, at least one, where RUNS runs would take longer than BUDGET
// seconds), each into the same preallocated output tensor, and writes the
// last result to OUTDIR/output_T<threads>.npy. It prints one JSON line:
// {"runs": {"<threads>": [seconds, ...]}}.
//
// Inputs are NumPy .npy files (little-endian, C order) in the order of the
// model's graph inputs.

'use strict';

const fs = require('fs');
const path = require('path');

function loadOrt() {
  const dirs = [process.env.ND_BENCH_ORT_DIR, path.join(__dirname, '.ort')];
  for (const dir of dirs) {
    if (!dir)
      continue;
    const main = path.join(dir, 'node_modules', 'onnxruntime-node');
    if (fs.existsSync(main))
      return require(main);
  }
  return require('onnxruntime-node');
}

// NumPy dtype strings and the ONNX Runtime tensor types they map to.
const DTYPES = {
  '<f2': ['float16', Uint16Array],
  '<f4': ['float32', Float32Array],
  '<f8': ['float64', Float64Array],
  '<i4': ['int32', Int32Array],
  '<i8': ['int64', BigInt64Array],
  '|b1': ['bool', Uint8Array],
};

function readNpy(file) {
  const bytes = fs.readFileSync(file);
  if (bytes.toString('latin1', 0, 6) !== '\x93NUMPY')
    throw new Error(`${file}: not a .npy file`);
  const major = bytes[6];
  const headerLength =
      major === 1 ? bytes.readUInt16LE(8) : bytes.readUInt32LE(8);
  const headerStart = major === 1 ? 10 : 12;
  const header =
      bytes.toString('latin1', headerStart, headerStart + headerLength);
  const descr = /'descr':\s*'([^']+)'/.exec(header);
  const fortran = /'fortran_order':\s*(True|False)/.exec(header);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!descr || !fortran || !shape)
    throw new Error(`${file}: malformed .npy header`);
  if (fortran[1] === 'True')
    throw new Error(`${file}: Fortran order is not supported`);
  const entry = DTYPES[descr[1]];
  if (!entry)
    throw new Error(`${file}: unsupported dtype ${descr[1]}`);
  const dims = shape[1].split(',')
                   .map((s) => s.trim())
                   .filter((s) => s.length)
                   .map(Number);
  const count = dims.reduce((a, b) => a * b, 1);
  const [type, Array] = entry;
  const start = headerStart + headerLength;
  const byteLength = count * Array.BYTES_PER_ELEMENT;
  if (bytes.length - start < byteLength)
    throw new Error(`${file}: truncated data`);
  // Copy into a fresh buffer: typed arrays need aligned offsets.
  const data = new Array(count);
  new Uint8Array(data.buffer).set(bytes.subarray(start, start + byteLength));
  return {type, data, dims};
}

function npyDescr(type) {
  for (const [descr, [t]] of Object.entries(DTYPES))
    if (t === type)
      return descr;
  throw new Error(`no .npy dtype for ${type}`);
}

function writeNpy(file, tensor) {
  const shape = tensor.dims.length === 1 ? `${tensor.dims[0]},`
                                         : tensor.dims.join(', ');
  let header = `{'descr': '${npyDescr(tensor.type)}', 'fortran_order': False, ` +
               `'shape': (${shape}), }`;
  // Pad so that the data starts at a multiple of 64 bytes.
  const total = Math.ceil((10 + header.length + 1) / 64) * 64;
  header = header.padEnd(total - 10 - 1, ' ') + '\n';
  const prefix = Buffer.alloc(10);
  prefix.write('\x93NUMPY', 0, 'latin1');
  prefix[6] = 1;
  prefix[7] = 0;
  prefix.writeUInt16LE(header.length, 8);
  const data = tensor.data;
  fs.writeFileSync(file, Buffer.concat([
    prefix, Buffer.from(header, 'latin1'),
    Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  ]));
}

async function main() {
  const [model, outDir, threadList, runsText, budgetText, ...inputFiles] =
      process.argv.slice(2);
  if (!model || !outDir || !threadList || !runsText || !budgetText) {
    process.stderr.write('usage: node ort_run.js MODEL OUTDIR THREADS RUNS ' +
                         'BUDGET INPUT.npy...\n');
    process.exit(2);
  }
  const ort = loadOrt();
  const runs = Number(runsText);
  const budget = Number(budgetText);
  const inputs = inputFiles.map(readNpy);
  const result = {runs: {}};
  for (const threads of threadList.split(',').map(Number)) {
    const session = await ort.InferenceSession.create(model, {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
    });
    if (session.inputNames.length !== inputs.length)
      throw new Error(`${model} takes ${session.inputNames.length} inputs, ` +
                      `got ${inputs.length}`);
    const feeds = {};
    session.inputNames.forEach((name, i) => {
      feeds[name] = new ort.Tensor(inputs[i].type, inputs[i].data,
                                   inputs[i].dims);
    });
    // Every run writes into one preallocated output tensor, as a caller that
    // reuses its buffers would; the models declare the output's shape.
    const name = session.outputNames[0];
    const meta = session.outputMetadata[0];
    const Array = DTYPES[npyDescr(meta.type)][1];
    const count = meta.shape.reduce((a, b) => a * b, 1);
    const output = new ort.Tensor(meta.type, new Array(count), meta.shape);
    const fetches = {[name]: output};
    const warmStart = process.hrtime.bigint();
    await session.run(feeds, fetches);
    const warm = Number(process.hrtime.bigint() - warmStart) / 1e9;
    const timed = warm * runs > budget
        ? Math.max(1, Math.min(runs, Math.floor(budget / warm)))
        : runs;
    const seconds = [];
    for (let n = 0; n < timed; ++n) {
      const start = process.hrtime.bigint();
      await session.run(feeds, fetches);
      seconds.push(Number(process.hrtime.bigint() - start) / 1e9);
    }
    writeNpy(path.join(outDir, `output_T${threads}.npy`), output);
    result.runs[threads] = seconds;
    await session.release();
  }
  process.stdout.write(JSON.stringify(result) + '\n');
}

main().catch((error) => {
  process.stderr.write(`ort_run: ${error.stack || error}\n`);
  process.exit(1);
});
