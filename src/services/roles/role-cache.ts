import { EVERYONE_ROLE_ID, type Role, type RolesRepository, roleCan } from "../../db/repositories/roles.ts";

/**
 * Roles are read on every authenticated request and change rarely, so they are kept for a few
 * seconds; a change made through Gannet calls `invalidate()`.
 */
export class RoleCache {
  readonly #repo: RolesRepository;
  #roles?: Map<string, Role>;
  #loadedAt = 0;

  constructor(repo: RolesRepository) {
    this.#repo = repo;
  }

  #load(): Map<string, Role> | Promise<Map<string, Role>> {
    // Fresh roles are answered without a trip through the event loop (this runs per request).
    if (this.#roles && Date.now() - this.#loadedAt <= 10_000) return this.#roles;
    return this.#reload();
  }

  async #reload(): Promise<Map<string, Role>> {
    const roles = new Map((await this.#repo.all()).map((r) => [r.id, r]));
    this.#roles = roles;
    this.#loadedAt = Date.now();
    return roles;
  }

  async get(id: string): Promise<Role | undefined> {
    return (await this.#load()).get(id);
  }

  async can(roleId: string, permission: number): Promise<boolean> {
    const roles = await this.#load();
    const role = roles.get(roleId);
    return role !== undefined && roleCan(role, roles.get(EVERYONE_ROLE_ID), permission);
  }

  invalidate(): void {
    this.#roles = undefined;
  }
}
