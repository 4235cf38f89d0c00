import { useState, type FormEvent } from 'react';
import { GraphqlError, graphql } from '../api/graphql-client';
import { useSession } from '../api/session';
import { Link, navigate, useLocation } from '../router';

const LOGIN = 'mutation($input: LoginInput!) { login(input: $input) { accessToken } }';
const SIGN_UP = 'mutation($input: SignUpInput!) { signUp(input: $input) { accessToken } }';

function useAuthForm(mutation: string, field: 'login' | 'signUp') {
  const { signIn } = useSession();
  const { query } = useLocation();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const input = Object.fromEntries([...form.entries()].map(([k, v]) => [k, String(v)]));
    setBusy(true);
    setError(null);
    try {
      const data = await graphql<Record<string, { accessToken: string }>>(mutation, { input });
      await signIn(data[field]!.accessToken);
      const next = query.get('next');
      navigate(next && next.startsWith('/') ? next : '/campaigns');
    } catch (err) {
      setError(err instanceof GraphqlError ? `${err.field ? `${err.field}: ` : ''}${err.message}` : String(err));
    } finally {
      setBusy(false);
    }
  };
  return { submit, error, busy };
}

export function LoginPage() {
  const { submit, error, busy } = useAuthForm(LOGIN, 'login');
  return (
    <section className="narrow" aria-labelledby="login-title">
      <h1 id="login-title">Sign in</h1>
      <form onSubmit={submit} className="stack">
        <label>
          Email
          <input name="email" type="email" autoComplete="email" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        {error ? <p role="alert" className="error">{error}</p> : null}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p>
        No account? <Link to="/signup">Sign up</Link>
      </p>
    </section>
  );
}

export function SignUpPage() {
  const { submit, error, busy } = useAuthForm(SIGN_UP, 'signUp');
  return (
    <section className="narrow" aria-labelledby="signup-title">
      <h1 id="signup-title">Sign up</h1>
      <p>You get a personal organization that you own.</p>
      <form onSubmit={submit} className="stack">
        <label>
          Name
          <input name="name" autoComplete="name" required />
        </label>
        <label>
          Email
          <input name="email" type="email" autoComplete="email" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="new-password" minLength={8} required />
        </label>
        {error ? <p role="alert" className="error">{error}</p> : null}
        <button type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create account'}
        </button>
      </form>
      <p>
        Have an account? <Link to="/login">Sign in</Link>
      </p>
    </section>
  );
}
