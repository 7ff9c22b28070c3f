import { parseSegment } from '/work/main/api/segmentation/parser/index.ts';
for (const q of process.argv.slice(2)) {
  const r: any = parseSegment(q, {} as any);
  console.log(q, '=>', JSON.stringify({ ...r.segment, version: undefined }), 'unrec', JSON.stringify(r.unrecognized));
}
