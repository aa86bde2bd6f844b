/** A worker_threads worker of a parallel run (parallel-node.ts): runs each slice it is sent. */
import { parentPort } from 'node:worker_threads';
import { runSlice, type SliceRequest } from './parallel.js';

parentPort?.on('message', (req: SliceRequest) => parentPort!.postMessage(runSlice(req)));
