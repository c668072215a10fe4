import { describeRegistrations } from "../fixtures/instance-registrations.ts";

// A single-user server never takes sign-ups, whatever REGISTRATIONS_MODE says.
describeRegistrations(
  { REGISTRATIONS_MODE: "open", SINGLE_USER_MODE: "true" },
  { enabled: false, approvalRequired: false, openRegistrations: false },
);
