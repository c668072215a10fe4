import { MemoryEventBus } from "../../src/infra/bus/memory.ts";
import { busContract } from "./bus-contract.ts";

busContract("memory", async () => ({
  shared: false,
  make: async () => new MemoryEventBus(),
  close: async () => {},
}));
