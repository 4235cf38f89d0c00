import { CliError } from './output.js';

export interface ApiOptions {
  api?: string;
  apiKey?: string;
}

export function apiTarget(options: ApiOptions): { url: string; key: string | undefined } {
  const base = options.api ?? process.env.FANOUT_API ?? 'http://localhost:3000';
  return { url: `${base.replace(/\/+$/, '')}/graphql`, key: options.apiKey ?? process.env.FANOUT_API_KEY };
}

export function hasApiCredential(options: ApiOptions): boolean {
  return Boolean(options.apiKey ?? process.env.FANOUT_API_KEY);
}

/** One GraphQL call; an error answer becomes a CliError with its code and message. */
export async function graphql<T>(options: ApiOptions, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const { url, key } = apiTarget(options);
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      // Without a key the call is anonymous: public campaigns can be read that way.
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
  } catch (err) {
    throw new CliError(`cannot reach the Fanout API at ${url}: ${(err as Error).cause ?? (err as Error).message}. Is it running (npm start)? Set --api or FANOUT_API.`);
  }
  const body = (await res.json().catch(() => null)) as { data?: T; errors?: { message: string; extensions?: { code?: string } }[] } | null;
  if (!body) throw new CliError(`the API at ${url} answered HTTP ${res.status} without a GraphQL body`);
  if (body.errors?.length) {
    const hint = !key && body.errors.some((e) => e.extensions?.code === 'UNAUTHENTICATED') ? '\n(no API key given: pass --api-key or set FANOUT_API_KEY; create one with `fanout keys create`)' : '';
    throw new CliError(body.errors.map((e) => `${e.extensions?.code ?? 'ERROR'}: ${e.message}`).join('\n') + hint);
  }
  return body.data as T;
}
