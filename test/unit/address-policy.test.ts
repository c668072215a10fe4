import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadConfig } from "../../src/config/index.ts";
import { createAddressPolicy, isPublicAddress, parseAddress, parseRange } from "../../src/lib/net/address-policy.ts";

const pub = (a: string): boolean => {
  const p = parseAddress(a);
  assert.ok(p, `${a} parses`);
  return isPublicAddress(p);
};

describe("address policy", () => {
  it("parses IPv4, IPv6, bracketed, zoned and dotted-tail forms", () => {
    assert.deepEqual(parseAddress("10.1.2.3"), { family: 4, value: 0x0a010203n });
    assert.deepEqual(parseAddress("::1"), { family: 6, value: 1n });
    assert.deepEqual(parseAddress("[::1]"), { family: 6, value: 1n });
    assert.deepEqual(parseAddress("fe80::1%eth0"), { family: 6, value: (0xfe80n << 112n) | 1n });
    assert.deepEqual(parseAddress("::ffff:127.0.0.1"), { family: 6, value: (0xffffn << 32n) | 0x7f000001n });
    assert.deepEqual(parseAddress("2001:db8:0:0:1:0:0:1"), parseAddress("2001:db8::1:0:0:1"));
    assert.equal(parseAddress("example.com"), undefined);
    assert.equal(parseAddress("1.2.3"), undefined);
    assert.equal(parseAddress("1.2.3.256"), undefined);
  });

  it("refuses loopback, private, link-local, CGNAT, multicast, unspecified and reserved IPv4", () => {
    for (const a of [
      "127.0.0.1",
      "127.255.0.9",
      "10.0.0.1",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "100.127.255.255",
      "224.0.0.1",
      "239.255.255.250",
      "0.0.0.0",
      "255.255.255.255",
      "240.0.0.1",
      "192.0.2.10",
      "198.18.0.1",
    ]) {
      assert.equal(pub(a), false, a);
    }
  });

  it("refuses loopback, unique-local, link-local, multicast and IPv4-mapped private IPv6", () => {
    for (const a of [
      "::1",
      "::",
      "fd00::1",
      "fc12:3456::1",
      "fe80::1",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "::ffff:7f00:1",
      "64:ff9b::a00:1",
      "2001:db8::1",
      "2002:7f00:1::1",
    ]) {
      assert.equal(pub(a), false, a);
    }
  });

  it("allows public addresses, including the edges next to private ranges", () => {
    for (const a of [
      "1.1.1.1",
      "8.8.8.8",
      "172.15.255.255",
      "172.32.0.0",
      "100.63.255.255",
      "100.128.0.0",
      "11.0.0.1",
      "223.255.255.255",
      "2606:4700:4700::1111",
      "2001:4860:4860::8888",
      "::ffff:8.8.8.8",
    ]) {
      assert.equal(pub(a), true, a);
    }
  });

  it("parses single addresses and CIDR ranges as Mastodon accepts them", () => {
    assert.deepEqual(parseRange("127.0.0.1"), { family: 4, base: 0x7f000001n, prefix: 32 });
    assert.deepEqual(parseRange("10.1.2.3/8"), { family: 4, base: 0x0a000000n, prefix: 8 });
    assert.deepEqual(parseRange("fd00::/8"), { family: 6, base: 0xfdn << 120n, prefix: 8 });
    assert.deepEqual(parseRange("::ffff:10.0.0.0/104"), { family: 4, base: 0x0a000000n, prefix: 8 });
    for (const bad of ["10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/8/1", "localhost", "10.0.0.0/x"]) {
      assert.equal(parseRange(bad), undefined, bad);
    }
  });

  it("allows a private address only when the operator listed it", () => {
    const none = createAddressPolicy([]);
    assert.equal(none.allows("127.0.0.1"), false);
    assert.equal(none.allows("8.8.8.8"), true);
    assert.equal(none.allows("not an address"), false);

    const list = createAddressPolicy(["127.0.0.1", "10.0.0.0/8", "::1", "fd00::/8"]);
    assert.equal(list.allows("127.0.0.1"), true);
    assert.equal(list.allows("::ffff:127.0.0.1"), true, "mapped form of an allowed IPv4 address");
    assert.equal(list.allows("127.0.0.2"), false);
    assert.equal(list.allows("10.200.3.4"), true);
    assert.equal(list.allows("::1"), true);
    assert.equal(list.allows("fd12::5"), true);
    assert.equal(list.allows("fc00::5"), false);
    assert.equal(list.allows("192.168.0.1"), false);
    assert.equal(list.isExplicitlyAllowed("10.0.0.1"), true);
    assert.equal(list.isExplicitlyAllowed("8.8.8.8"), false);
    assert.throws(() => createAddressPolicy(["10.0.0.0/99"]));
  });

  it("a bad ALLOWED_PRIVATE_ADDRESSES entry stops start-up with a clear message", () => {
    assert.throws(
      () =>
        loadConfig(
          { LOCAL_DOMAIN: "example.com", SECRET_KEY: "s".repeat(40), ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,intranet" },
          { createDataDir: false },
        ),
      /ALLOWED_PRIVATE_ADDRESSES: "intranet"/,
    );
  });
});
