// Final Cut Pro markers (issue 30): an FCPXML 1.8 document with one project whose sequence holds
// a gap as long as the version, the notes as markers on that gap. A gap needs no media, so the
// file imports on its own (File > Import > XML); the editor then copies the markers or lays the
// cut above the gap. Times are rational seconds on the version's frames (1001/24000s a frame at
// 23.976), counted from the start timecode (the sequence's tcStart and the gap's start), as
// Final Cut writes them. A marker's `value` is the note, its `note` who wrote it and the state,
// and `completed` makes it a to-do marker: 0 open, 1 resolved.
import { byLine, place, xmlEscape } from './common.ts';
import { frameDuration, rationalSeconds } from './timecode.ts';
import type { MarkerNote, MarkerVersion } from './types.ts';

export function writeFcpxml(version: MarkerVersion, notes: readonly MarkerNote[]): string {
  const { rate, startFrames, totalFrames, markers } = place(version, notes);
  const t = (frames: number) => rationalSeconds(frames, rate);
  const size = version.width && version.height ? ` width="${version.width}" height="${version.height}"` : '';
  const name = xmlEscape(`${version.title} v${version.versionNumber} notes`);
  const tcFormat = rate.drop ? 'DF' : 'NDF';
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE fcpxml>',
    '',
    '<fcpxml version="1.8">',
    '    <resources>',
    `        <format id="r1" frameDuration="${frameDuration(rate)}"${size}/>`,
    '    </resources>',
    '    <library>',
    `        <event name="${xmlEscape('Review notes')}">`,
    `            <project name="${name}">`,
    `                <sequence duration="${t(totalFrames)}" format="r1" tcStart="${t(startFrames)}" tcFormat="${tcFormat}">`,
    '                    <spine>',
  ];
  const gap = `<gap name="Gap" offset="${t(startFrames)}" duration="${t(totalFrames)}" start="${t(startFrames)}"`;
  if (!markers.length) out.push(`                        ${gap}/>`);
  else {
    out.push(`                        ${gap}>`);
    for (const m of markers) {
      out.push(
        `                            <marker start="${t(startFrames + m.frame)}" duration="${t(m.frames)}" value="${xmlEscape(m.note.text)}" completed="${m.note.resolved ? 1 : 0}" note="${xmlEscape(byLine(m.note))}"/>`,
      );
    }
    out.push('                        </gap>');
  }
  out.push('                    </spine>', '                </sequence>', '            </project>', '        </event>', '    </library>', '</fcpxml>', '');
  return out.join('\n');
}
