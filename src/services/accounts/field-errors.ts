import { type FieldError, registrationError } from "./create-local-account.ts";

/** Collects validation problems per field, to answer them all at once in Mastodon's 422 format. */
export class FieldErrors {
  readonly details: Record<string, FieldError[]> = {};

  add(field: string, error: string, description: string): void {
    (this.details[field] ??= []).push({ error, description });
  }

  merge(details: Record<string, FieldError[]>): void {
    for (const [field, errs] of Object.entries(details)) for (const e of errs) this.add(field, e.error, e.description);
  }

  get empty(): boolean {
    return Object.keys(this.details).length === 0;
  }

  /** Throws the 422 `Validation failed: ...` with `details` when anything was added. */
  throwIfAny(): void {
    if (!this.empty) throw registrationError(this.details);
  }
}
