// Subtitle streams inside an uploaded file (issue 54): mov_text in MP4/MOV, SRT/ASS/WebVTT in
// MKV become tracks of the version when it is first converted (source 'embedded'). ffmpeg turns
// each into SRT (its ASS styling reduced to what SRT keeps: <i>, <b>, {\an8}), which is then
// read like an upload; the stream's language tag and its forced or hearing-impaired flags give
// the track's language and kind. A stream that cannot be read is logged and skipped: the
// conversion itself never fails for it, and a track already there (a reconversion) stays.
import { readFile, rm } from 'node:fs/promises';
import { and, eq } from 'drizzle-orm';
import { db } from '../../db/index.ts';
import { captionTracks } from '../../db/schema.ts';
import { inputArgs, run, type MediaFile } from '../media/ffmpeg.ts';
import { storage } from '../storage/index.ts';
import { JOB_SCRATCH } from '../storage/markers.ts';
import { CAPTION_LABEL_MAX, type CaptionKind } from '../../shared/schemas/captions.ts';
import { textProblem } from '../../shared/schemas/text.ts';
import { canonicalLanguage, UNDETERMINED } from './language.ts';
import { storeCaptionFile, type CaptionVersion } from './store.ts';

/** Text subtitle codecs ffmpeg can write as SRT (bitmaps, such as DVD and Blu-ray subtitles, cannot). */
const TEXT_CODECS = new Set(['mov_text', 'subrip', 'srt', 'ass', 'ssa', 'webvtt', 'text']);

interface SubtitleStream {
  index: number;
  codec: string;
  language: string;
  title: string | null;
  kind: CaptionKind;
}

export interface SubtitleStreams {
  streams: SubtitleStream[];
  /**
   * Where the first picture is on the file's clock, in seconds. The cues are moved by it: the
   * proxies and the players count from the first picture, while a Matroska file whose AAC sound
   * starts early (encoder priming) has its picture, and the subtitles beside it, some 20 ms in.
   */
  pictureStart: number;
}

export async function subtitleStreams(file: MediaFile): Promise<SubtitleStreams> {
  const r = await run('ffprobe', [
    '-v', 'error',
    '-show_entries', 'stream=index,codec_type,codec_name,start_time:stream_tags=language,title:stream_disposition=forced,hearing_impaired',
    '-of', 'json', ...inputArgs(file).slice(0, -2), file.path,
  ]); // prettier-ignore
  if (r.code !== 0) return { streams: [], pictureStart: 0 };
  const all = (JSON.parse(r.stdout || '{}').streams ?? []) as { index: number; codec_type?: string; codec_name?: string; start_time?: string; tags?: { language?: string; title?: string }; disposition?: { forced?: number; hearing_impaired?: number } }[];
  const picture = Number(all.find((s) => s.codec_type === 'video')?.start_time);
  const streams: SubtitleStream[] = all
    .filter((s) => s.codec_type === 'subtitle' && TEXT_CODECS.has(s.codec_name ?? ''))
    .map((s) => ({
      index: s.index,
      codec: s.codec_name!,
      language: canonicalLanguage(s.tags?.language ?? '', true) ?? UNDETERMINED,
      // A title that breaks the text rules of names is left out (the label is then the language's).
      title: s.tags?.title && !textProblem(s.tags.title.trim(), false, true) ? s.tags.title.trim().slice(0, CAPTION_LABEL_MAX) || null : null,
      kind: s.disposition?.forced ? 'forced' : s.disposition?.hearing_impaired ? 'captions' : 'subtitles',
    }));
  return { streams, pictureStart: Number.isFinite(picture) && picture > 0 ? picture : 0 };
}

/** Stores the version's subtitle streams as tracks; answers how many were added. */
export async function extractEmbedded(version: CaptionVersion & { storageKey: string }, original: MediaFile, log: (line: string) => void): Promise<number> {
  const { streams, pictureStart } = await subtitleStreams(original);
  let added = 0;
  for (const s of streams) {
    const [have] = await db
      .select({ id: captionTracks.id })
      .from(captionTracks)
      .where(and(eq(captionTracks.versionId, version.id), eq(captionTracks.language, s.language), eq(captionTracks.kind, s.kind)))
      .limit(1);
    if (have) continue;
    const out = storage.scratch(version.storageKey, `${JOB_SCRATCH}-cc${s.index}.srt`);
    try {
      const r = await run('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...(pictureStart ? ['-itsoffset', String(-pictureStart)] : []), ...inputArgs(original), '-map', `0:${s.index}`, '-c:s', 'srt', '-f', 'srt', out]);
      if (r.code !== 0) throw new Error(r.stderr.trim().split('\n').pop() || `ffmpeg exited with ${r.code}`);
      const bytes = await readFile(out);
      await storeCaptionFile(version, { bytes, name: `stream ${s.index} (${s.codec}).srt` }, { language: s.language, kind: s.kind, ...(s.title ? { label: s.title } : {}) }, 'embedded', null);
      added++;
    } catch (e) {
      log(`version ${version.id}: subtitle stream ${s.index} (${s.codec}) skipped: ${e instanceof Error ? e.message : e}`);
    } finally {
      await rm(out, { force: true });
    }
  }
  return added;
}
