/** An error the API answers with: `{"error": message, ...extra}` and the given status. */
export class ApiError extends Error {
  readonly status: number;
  readonly extra?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  constructor(status: number, message: string, extra?: Record<string, unknown>, headers?: Record<string, string>) {
    super(message);
    this.status = status;
    this.extra = extra;
    this.headers = headers;
  }

  toJSON(): Record<string, unknown> {
    return { error: this.message, ...this.extra };
  }
}

export const notFound = (): ApiError => new ApiError(404, "Record not found");
export const gone = (): ApiError => new ApiError(410, "Record has been deleted");
export const forbidden = (message = "This action is not allowed"): ApiError => new ApiError(403, message);
export const unprocessable = (message: string, extra?: Record<string, unknown>): ApiError =>
  new ApiError(422, message, extra);
export const badRequest = (message: string): ApiError => new ApiError(400, message);

export const ERR = {
  invalidToken: "The access token is invalid",
  outsideScopes: "This action is outside the authorized scopes",
  userRequired: "This method requires an authenticated user",
  disabled: "Your login is currently disabled",
  unconfirmed: "Your login is missing a confirmed e-mail address",
  pending: "Your login is currently pending approval",
  suspended: "Your login is currently disabled",
} as const;

/** An OAuth endpoint error: `{"error": code, "error_description": text}`. */
export class OAuthError extends ApiError {
  constructor(status: number, code: string, description: string) {
    super(status, code, { error_description: description });
  }
}
