// Premiere Pro markers (issue 30): the Final Cut Pro 7 XML (xmeml version 4) that Premiere Pro
// imports with File > Import and writes with File > Export > Final Cut Pro XML. One sequence
// named after the version, its rate (timebase 24 with ntsc TRUE for 23.976) and start timecode,
// and a sequence marker per note: `<name>` the note, `<comment>` who wrote it and the state,
// `<in>` the frame from the sequence's start and `<out>` the range's end frame (-1 for a point,
// as Premiere writes it). Chosen over Premiere's marker CSV, which Premiere exports but cannot
// import. Premiere markers have colours only in its own project files, so the state is in the comment.
import { byLine, place, xmlEscape } from './common.ts';
import { framesToLabel } from './timecode.ts';
import type { MarkerNote, MarkerVersion } from './types.ts';

export function writePremiereXml(version: MarkerVersion, notes: readonly MarkerNote[]): string {
  const { rate, startFrames, totalFrames, markers } = place(version, notes);
  const rateXml = (indent: string) => [`${indent}<rate>`, `${indent}\t<timebase>${rate.nominal}</timebase>`, `${indent}\t<ntsc>${rate.ntsc ? 'TRUE' : 'FALSE'}</ntsc>`, `${indent}</rate>`];
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE xmeml>',
    '<xmeml version="4">',
    '\t<sequence id="sequence-1">',
    `\t\t<name>${xmlEscape(`${version.title} v${version.versionNumber} notes`)}</name>`,
    `\t\t<duration>${totalFrames}</duration>`,
    ...rateXml('\t\t'),
    '\t\t<timecode>',
    ...rateXml('\t\t\t'),
    `\t\t\t<string>${framesToLabel(startFrames, rate)}</string>`,
    `\t\t\t<frame>${startFrames}</frame>`,
    `\t\t\t<displayformat>${rate.drop ? 'DF' : 'NDF'}</displayformat>`,
    '\t\t</timecode>',
    '\t\t<media>',
    '\t\t\t<video>',
    '\t\t\t\t<format>',
    '\t\t\t\t\t<samplecharacteristics>',
    ...rateXml('\t\t\t\t\t\t'),
    ...(version.width && version.height ? [`\t\t\t\t\t\t<width>${version.width}</width>`, `\t\t\t\t\t\t<height>${version.height}</height>`] : []),
    '\t\t\t\t\t</samplecharacteristics>',
    '\t\t\t\t</format>',
    '\t\t\t\t<track/>',
    '\t\t\t</video>',
    '\t\t</media>',
  ];
  for (const m of markers) {
    out.push(
      '\t\t<marker>',
      `\t\t\t<comment>${xmlEscape(byLine(m.note))}</comment>`,
      `\t\t\t<name>${xmlEscape(m.note.text)}</name>`,
      `\t\t\t<in>${m.frame}</in>`,
      `\t\t\t<out>${m.note.endMs != null ? m.frame + m.frames : -1}</out>`,
      '\t\t</marker>',
    );
  }
  out.push('\t</sequence>', '</xmeml>', '');
  return out.join('\n');
}
