import assert from "node:assert/strict";
import { it } from "node:test";
import { describeRegistrations } from "../fixtures/instance-registrations.ts";

describeRegistrations(
  { REGISTRATIONS_MODE: "approved" },
  { enabled: true, approvalRequired: true, openRegistrations: true },
  (s) => {
    it("requires a reason when the operator asks for one, and shows a minimum age", async () => {
      await s().ctx.repos.settings.set("require_invite_text", true);
      await s().ctx.repos.settings.set("min_age", 16);
      const { registrations } = (await s().request("/api/v2/instance")).body;
      assert.equal(registrations.reason_required, true);
      assert.equal(registrations.min_age, 16);
      // The closed-registrations message is only shown while sign-ups are closed.
      await s().ctx.repos.settings.set("closed_registrations_message", "<p>Closed for now</p>");
      assert.equal((await s().request("/api/v2/instance")).body.registrations.message, null);
    });
  },
);
