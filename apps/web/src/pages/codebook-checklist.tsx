import { useGraphql } from '../api/use-graphql';
import { useState } from 'react';

export interface CodebookNode {
  key: string;
  level: string;
  parentKey: string | null;
  label: string;
  definition: string;
}
const CODEBOOKS = 'query { codebooks { versions { id nodes { key level parentKey label definition } } } }';

/** The nodes of one codebook version (from the built-in and the organization's codebooks). */
export function useCodebook(versionId: string | null): { data: CodebookNode[] | null; error: string | null } {
  const state = useGraphql<{ codebooks: { versions: { id: string; nodes: CodebookNode[] }[] }[] }>(CODEBOOKS, {}, { skip: !versionId });
  if (state.error) return { data: null, error: state.error.message };
  if (!state.data) return { data: null, error: null };
  const version = state.data.codebooks.flatMap((c) => c.versions).find((v) => v.id === versionId);
  return version ? { data: version.nodes, error: null } : { data: null, error: 'the campaign\'s codebook version is not visible' };
}

/**
 * The codebook as a searchable checklist: patterns under their category and
 * subcategory; a checked pattern asks for its rationale.
 */
export function Checklist({ nodes, chosen, onChange }: { nodes: CodebookNode[]; chosen: Record<string, string>; onChange: (next: Record<string, string>) => void }) {
  const [search, setSearch] = useState('');
  const byKey = new Map(nodes.map((n) => [n.key, n]));
  const needle = search.trim().toLowerCase();
  const patterns = nodes.filter((n) => n.level === 'pattern');
  const path = (n: CodebookNode) => {
    const sub = n.parentKey ? byKey.get(n.parentKey) : undefined;
    const cat = sub?.parentKey ? byKey.get(sub.parentKey) : undefined;
    return [cat?.label ?? cat?.key, sub?.label ?? sub?.key].filter(Boolean).join(' › ');
  };
  const visible = patterns.filter((n) => !needle || `${n.key} ${n.label} ${n.definition} ${path(n)}`.toLowerCase().includes(needle) || n.key in chosen);
  const toggle = (key: string) => {
    const next = { ...chosen };
    if (key in next) delete next[key];
    else if (key === 'no_failure') return onChange({ no_failure: chosen.no_failure ?? '' });
    else {
      delete next.no_failure;
      next[key] = '';
    }
    onChange(next);
  };
  return (
    <fieldset className="checklist">
      <legend>Codebook patterns</legend>
      <label>
        Search the codebook
        <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="e.g. write, timing, budget" />
      </label>
      {visible.length === 0 ? <p>No pattern matches “{search}”.</p> : null}
      <ul>
        {visible.map((n) => (
          <li key={n.key}>
            <label className="check">
              <input type="checkbox" name="pattern" value={n.key} checked={n.key in chosen} onChange={() => toggle(n.key)} />
              <span>
                <strong>{n.label}</strong> <code>{n.key}</code> <span className="muted">{path(n)}</span>
                <br />
                <span className="definition">{n.definition}</span>
              </span>
            </label>
            {n.key in chosen ? (
              <label className="rationale">
                Rationale for {n.label}
                <textarea required value={chosen[n.key]} onChange={(e) => onChange({ ...chosen, [n.key]: e.target.value })} rows={2} />
              </label>
            ) : null}
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
