/**
 * The replies seam: the composed pipeline (mock/pipeline/compose.ts) wrapped so that each reply passes
 * through the `rewrite` of every reply defect on (mock/defects/define.ts), in registry order. When a defect
 * says how this server renders what it caught (`render`), an exception of the pipeline or of a rewrite is
 * rendered that way instead of reaching the app's own 500 (mock/app.ts). A mock whose defects hook no reply
 * gets `run` itself back.
 */
import type { Reply } from '../../http/reply.ts';
import type { Pipeline } from '../../pipeline/compose.ts';
import type { Exchange } from '../../pipeline/exchange.ts';
import type { Defect, ReplyContext, ReplyHook, Rewrite } from '../unit/define.ts';

export function defectivePipeline(
  run: Pipeline,
  defects: readonly Defect[],
  context: ReplyContext,
): Pipeline {
  const hooks: ReplyHook[] = defects.flatMap((d) => (d.hooks.reply ? [d.hooks.reply(context)] : []));
  const rewrites = hooks.flatMap((h) => (h.rewrite ? [h.rewrite] : []));
  const render = hooks.find((h) => h.render !== undefined)?.render;
  if (rewrites.length === 0 && render === undefined) return run;

  const count = rewrites.length;
  const apply = (reply: Reply, exchange: Exchange, from: number): Reply | Promise<Reply> => {
    let current = reply;
    for (let i = from; i < count; i++) {
      const out = (rewrites[i] as Rewrite)(current, exchange);
      if (out instanceof Promise) {
        const next = out.then((r) => apply(r, exchange, i + 1));
        return render ? next.catch(render) : next;
      }
      current = out;
    }
    return current;
  };
  return (exchange) => {
    let out: Reply | Promise<Reply>;
    try {
      out = run(exchange);
    } catch (error) {
      if (!render) throw error;
      out = render(error);
    }
    if (out instanceof Promise) {
      const settled = render ? out.catch(render) : out;
      return settled.then((reply) => apply(reply, exchange, 0));
    }
    return apply(out, exchange, 0);
  };
}
