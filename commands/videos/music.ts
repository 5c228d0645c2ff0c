// vmv videos music: GET /v1/videos/music
import type { Command } from 'commander';
import { action, withExamples, type Shell } from '../../src/command.js';
import type { Context } from '../../src/context.js';
import { fetchList, withList, type ListOptions } from '../../src/list.js';
import { ALWAYS, col, moreHint, table, textCol } from '../../src/output.js';
// the track's type comes from the API's own schema (type-only: nothing of it is loaded)
import type { MusicTrackOut as Track } from '../../simulator/videos/records.js';

export function define(parent: Command, shell: Shell): void {
  withExamples(
    withList(
      parent
        .command('music')
        .description('The built-in royalty-free music: use a track id as `videos create --music` (free)'),
      { order: false },
    ).action(action(shell, run)),
    'vmv videos music --all',
    'vmv videos create --template slideshow --text "Our new menu is here." --music trk_upbeat_01',
  );
}

export async function run(ctx: Context, o: ListOptions): Promise<void> {
  const res = await fetchList(ctx, o, '/v1/videos/music', { query: { limit: o.limit, cursor: o.cursor } });
  ctx.emit(res, (b: { data: Track[]; meta?: { cursor?: string } }) => {
    table(
      ctx.io,
      [
        col('track id', ALWAYS),
        textCol('title', 6),
        col('mood', 4),
        col('bpm', 2),
        col('seconds', 3),
        col('library', 3),
      ],
      b.data.map((t) => [t.track_id, t.title, t.mood, t.bpm, t.duration_seconds, t.library]),
    );
    moreHint(ctx.io, b.meta);
  });
}
