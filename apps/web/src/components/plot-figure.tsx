import { useEffect, useRef } from 'react';

/**
 * Hosts an Observable Plot chart. `render` builds the SVG for the figure's
 * width; the caption and a text summary keep the chart readable without it.
 */
export function PlotFigure({ render, caption, summary, deps }: { render: (width: number) => Element; caption: string; summary?: string; deps: unknown[] }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const draw = () => {
      const width = Math.max(300, Math.min(el.clientWidth || 640, 960));
      el.replaceChildren(render(width));
    };
    draw();
    const observer = new ResizeObserver(() => draw());
    observer.observe(el);
    return () => observer.disconnect();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return (
    <figure className="chart">
      <div ref={host} role="img" aria-label={summary ?? caption} />
      <figcaption>{caption}</figcaption>
    </figure>
  );
}
