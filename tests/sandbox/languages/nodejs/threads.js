const { Worker } = require("worker_threads");
const w = new Worker("require('worker_threads').parentPort.postMessage(42)", { eval: true });
w.on("message", (v) => { console.log(v); w.terminate(); });
