import { Worker } from "worker_threads";
const w = new Worker("require('worker_threads').parentPort.postMessage(6 * 7)", { eval: true });
w.on("message", (v: number) => { console.log(v); w.terminate(); });
