import { describeRegistrations } from "../fixtures/instance-registrations.ts";

describeRegistrations(
  { REGISTRATIONS_MODE: "open" },
  { enabled: true, approvalRequired: false, openRegistrations: true },
);
