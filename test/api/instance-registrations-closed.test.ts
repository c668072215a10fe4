import assert from "node:assert/strict";
import { it } from "node:test";
import { describeRegistrations } from "../fixtures/instance-registrations.ts";

describeRegistrations(
  { REGISTRATIONS_MODE: "none" },
  { enabled: false, approvalRequired: false, openRegistrations: false },
  (s) => {
    it("shows the operator's closed-registrations message", async () => {
      await s().ctx.repos.settings.set("closed_registrations_message", "<p>Invite only, ask around</p>");
      const { registrations } = (await s().request("/api/v2/instance")).body;
      assert.equal(registrations.message, "<p>Invite only, ask around</p>");
    });
  },
);
