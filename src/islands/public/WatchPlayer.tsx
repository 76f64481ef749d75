// The film on its watch page (issue 32): the same player as the portfolio's dialog (quality
// menu, Space and arrows, the length before play), waiting for the viewer rather than
// autoplaying. Rendered on the server with the browser's controls, so it plays without
// JavaScript too.
import type { GridMedia } from '../../shared/public-media.ts';
import type { PlayerCaption } from '../../shared/schemas/captions.ts';
import { VideoStage } from './VideoStage.tsx';

export default function WatchPlayer({ item, captions }: { item: GridMedia & { durationSeconds: number | null }; captions: PlayerCaption[] }) {
  return <VideoStage item={item} autoplay={false} layout="page" preload="metadata" testId="watch-video" captions={captions} />;
}
