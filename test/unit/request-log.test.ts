import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { configure, type LogRecord, reset } from "@logtape/logtape";
import type { AppContext } from "../../src/context.ts";
import { loggedPath } from "../../src/http/middleware/request-log.ts";
import { createStreamingApp } from "../../src/http/streaming/app.ts";

describe("loggedPath", () => {
  it("keeps the path as sent and drops the whole query", () => {
    assert.equal(loggedPath("http://h/api/v1/streaming/user?access_token=S&stream=user"), "/api/v1/streaming/user");
    assert.equal(loggedPath("https://h:8443/a%0Ab?x"), "/a%0Ab");
    assert.equal(loggedPath("http://h/"), "/");
    assert.equal(loggedPath("http://h"), "/");
  });
});

describe("the streaming-only application's request log", () => {
  const records: LogRecord[] = [];
  before(async () => {
    await configure({
      sinks: { memory: (r) => records.push(r) },
      loggers: [
        { category: ["gannet", "http"], lowestLevel: "info", sinks: ["memory"] },
        { category: ["logtape", "meta"], lowestLevel: "warning", sinks: ["memory"] },
      ],
    });
  });
  after(() => reset());

  const health = (logRequests?: boolean) =>
    createStreamingApp({ logRequests }).fetch(new Request("http://127.0.0.1/health?access_token=SECRET"), {
      ctx: {} as AppContext,
    });

  it("writes a line per request when on, without the query", async () => {
    records.length = 0;
    assert.equal((await health(true)).status, 200);
    assert.equal(records.length, 1);
    assert.match(String(records[0].message.join("")), /^GET \/health 200 \d+\.\dms -$/);
  });

  it("writes nothing when off", async () => {
    records.length = 0;
    assert.equal((await health()).status, 200);
    assert.equal((await health(false)).status, 200);
    assert.equal(records.length, 0);
  });
});
