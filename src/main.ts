/**
 * The server's entry point (`npm start` runs its build, dist/current/main.js). Before loading
 * anything else it turns on Node's compile cache, so later starts reuse the bytecode of the
 * thousand-odd modules of the server instead of compiling them again (about half of start-up's
 * CPU time): in NODE_COMPILE_CACHE when set, else in the system's temporary directory
 * (`node-compile-cache`); NODE_DISABLE_COMPILE_CACHE=1 turns it off. The cache is keyed by each
 * file's contents and the Node version, so builds and versions never mix.
 */
import { enableCompileCache } from "node:module";

enableCompileCache();
const { main } = await import("./start.ts");
await main();
