/**
 * Mastodon's role permission bits and the ids of the roles every server is seeded with. Kept free
 * of imports so that the command line can check permission names before opening a database.
 */

/** The role every user holds as well: its permissions are everyone's base permissions. */
export const EVERYONE_ROLE_ID = "-99";

/** The seeded role holding `administrator`; it cannot be deleted. */
export const OWNER_ROLE_ID = "3";

/** Mastodon's role permission bits. */
export const Permission = {
  administrator: 0x1,
  devops: 0x2,
  viewAuditLog: 0x4,
  viewDashboard: 0x8,
  manageReports: 0x10,
  manageFederation: 0x20,
  manageSettings: 0x40,
  manageBlocks: 0x80,
  manageTaxonomies: 0x100,
  manageAppeals: 0x200,
  manageUsers: 0x400,
  manageInvites: 0x800,
  manageRules: 0x1000,
  manageAnnouncements: 0x2000,
  manageCustomEmojis: 0x4000,
  manageWebhooks: 0x8000,
  inviteUsers: 0x10000,
  manageRoles: 0x20000,
  manageUserAccess: 0x40000,
  deleteUserData: 0x80000,
  viewFeeds: 0x100000,
} as const;
