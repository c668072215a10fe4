import { MemoryKvStore } from "@fedify/fedify";
import { kvContract } from "./kv-contract.ts";

// Fedify's own store is the reference the contract is written against.
kvContract("Fedify's MemoryKvStore (reference)", async () => ({ kv: new MemoryKvStore(), close: async () => {} }));
