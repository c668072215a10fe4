/** Why the guarded client refused or gave up; callers tell the cases apart by class or `code`. */
export type GuardedFetchErrorCode =
  | "forbidden_address"
  | "unsupported_url"
  | "too_many_redirects"
  | "response_too_large"
  | "timeout";

export class GuardedFetchError extends Error {
  readonly code: GuardedFetchErrorCode;
  constructor(code: GuardedFetchErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** The host is, or resolves to, an address the operator has not allowed (private, loopback...). */
export class ForbiddenAddressError extends GuardedFetchError {
  override name = "ForbiddenAddressError";
  readonly hostname: string;
  readonly address: string;
  constructor(hostname: string, address: string) {
    super("forbidden_address", `${hostname} resolves to ${address}, which is not a public address`);
    this.hostname = hostname;
    this.address = address;
  }
}

/** Not an http: or https: URL (or not a URL at all). */
export class UnsupportedUrlError extends GuardedFetchError {
  override name = "UnsupportedUrlError";
  constructor(url: string) {
    super("unsupported_url", `only http and https URLs can be fetched: ${url}`);
  }
}

export class TooManyRedirectsError extends GuardedFetchError {
  override name = "TooManyRedirectsError";
  constructor(max: number) {
    super("too_many_redirects", `more than ${max} redirects`);
  }
}

/** The response body (after decompression) is larger than the caller's limit. */
export class ResponseTooLargeError extends GuardedFetchError {
  override name = "ResponseTooLargeError";
  constructor(maxBytes: number) {
    super("response_too_large", `response body larger than ${maxBytes} bytes`);
  }
}

export class FetchTimeoutError extends GuardedFetchError {
  override name = "FetchTimeoutError";
  constructor(ms: number) {
    super("timeout", `no complete response within ${ms} ms`);
  }
}
