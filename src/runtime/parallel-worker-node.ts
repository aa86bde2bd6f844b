/** A worker_threads worker of a parallel run (parallel-node.ts): answers each slice or ping it is sent. */
import { parentPort } from 'node:worker_threads';
import { answer, type WorkerRequest } from './parallel-slice.js';
import { threadCpuMs } from './parallel-node.js';

parentPort?.on('message', (req: WorkerRequest) => parentPort!.postMessage(answer(req, threadCpuMs)));
