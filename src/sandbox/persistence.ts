import fs from 'node:fs';
import path from 'node:path';
import type { Change, JournalEntry, JournalSink, SandboxState } from './state.js';

/**
 * Durable state (docs/sandbox.md "Persistence"): every committed mutation is one JSON line appended to `journal.jsonl` before the
 * request is answered; now and then the whole state is compacted into `snapshot.jsonl` (temp file, fsync, rename,
 * directory fsync) and the journal is emptied. Start-up loads the snapshot, then replays the journal.
 *
 * Crash safety: a SIGKILL can only tear the last journal line (appends are sequential), which replay drops and
 * truncates away. A crash between the snapshot rename and the journal truncation replays entries the snapshot
 * already holds; that is harmless because each change is a whole record (put or delete), so replay is idempotent.
 *
 * Appends are written (not fsynced) per request: the data is in the OS page cache, so it survives the process
 * being killed; snapshots are fsynced because they replace the previous one.
 */

const SNAPSHOT = 'snapshot.jsonl';
const JOURNAL = 'journal.jsonl';
/** Compact once the journal is larger than this, or than the last snapshot (whichever is larger). */
const MIN_COMPACT_BYTES = 4 * 1024 * 1024;

export class Persistence implements JournalSink {
  private fd: number | undefined;
  private journalBytes = 0;
  private snapshotBytes = 0;

  private constructor(
    readonly dir: string,
    private readonly state: SandboxState,
  ) {}

  /** Loads `dir` into `state` (replaying snapshot and journal) and returns the sink for later mutations. */
  static open(dir: string, state: SandboxState): { persistence: Persistence; loaded: boolean } {
    // The journal holds the app's token and client secret: the directory and every file in it are the user's alone.
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    restrictToOwner(dir);
    // A snapshot being written when the process died is incomplete; the previous one is still in place.
    for (const name of fs.readdirSync(dir)) {
      if (name.startsWith(`${SNAPSHOT}.`) && name.endsWith('.tmp')) fs.rmSync(path.join(dir, name), { force: true });
    }
    const p = new Persistence(dir, state);
    const loaded = p.load();
    p.fd = fs.openSync(path.join(dir, JOURNAL), 'a', 0o600);
    state.attachJournal(p);
    return { persistence: p, loaded };
  }

  append(entry: JournalEntry): void {
    if (this.fd === undefined) return;
    const line = JSON.stringify(entry) + '\n';
    const buf = Buffer.from(line);
    let written = 0;
    while (written < buf.length) written += fs.writeSync(this.fd, buf, written);
    this.journalBytes += buf.length;
    if (this.journalBytes > Math.max(MIN_COMPACT_BYTES, this.snapshotBytes)) this.compact();
  }

  /** Writes the whole state as a new snapshot and empties the journal. */
  compact(): void {
    const finalPath = path.join(this.dir, SNAPSHOT);
    const tmpPath = `${finalPath}.${process.pid}.tmp`;
    const fd = fs.openSync(tmpPath, 'w', 0o600);
    let bytes = 0;
    try {
      let chunk: string[] = [];
      let chunkLength = 0;
      const flush = () => {
        const buf = Buffer.from(chunk.join(''));
        let written = 0;
        while (written < buf.length) written += fs.writeSync(fd, buf, written);
        bytes += buf.length;
        chunk = [];
        chunkLength = 0;
      };
      for (const change of this.state.dump()) {
        const line = JSON.stringify(change) + '\n';
        chunk.push(line);
        chunkLength += line.length;
        if (chunkLength > 1 << 20) flush();
      }
      flush();
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmpPath, finalPath);
    fsyncDir(this.dir);
    if (this.fd !== undefined) {
      fs.ftruncateSync(this.fd, 0);
      fs.fsyncSync(this.fd);
    }
    this.snapshotBytes = bytes;
    this.journalBytes = 0;
  }

  /** Compacts and stops writing. */
  close(): void {
    if (this.fd === undefined) return;
    this.compact();
    fs.closeSync(this.fd);
    this.fd = undefined;
    this.state.attachJournal(undefined);
  }

  private load(): boolean {
    const snapshotPath = path.join(this.dir, SNAPSHOT);
    const journalPath = path.join(this.dir, JOURNAL);
    let loaded = false;
    if (fs.existsSync(snapshotPath)) {
      const buf = fs.readFileSync(snapshotPath);
      this.snapshotBytes = buf.length;
      forEachLine(buf, (line) => {
        if (line.complete) this.state.applyChange(JSON.parse(line.text) as Change);
      });
      loaded = true;
    }
    if (fs.existsSync(journalPath)) {
      const buf = fs.readFileSync(journalPath);
      let goodEnd = 0;
      forEachLine(buf, (line) => {
        if (!line.complete) return;
        let entry: JournalEntry;
        try {
          entry = JSON.parse(line.text) as JournalEntry;
        } catch {
          return;
        }
        for (const change of entry.ch) this.state.applyChange(change);
        goodEnd = line.end;
        loaded = true;
      });
      // A torn last line (no newline) is dropped so the next append starts on a fresh line.
      if (goodEnd < buf.length) fs.truncateSync(journalPath, goodEnd);
      this.journalBytes = goodEnd;
    }
    return loaded;
  }
}

function forEachLine(buf: Buffer, fn: (line: { text: string; end: number; complete: boolean }) => void): void {
  let start = 0;
  while (start < buf.length) {
    const nl = buf.indexOf(10, start);
    if (nl === -1) {
      fn({ text: buf.subarray(start).toString('utf8'), end: buf.length, complete: false });
      return;
    }
    if (nl > start) fn({ text: buf.subarray(start, nl).toString('utf8'), end: nl + 1, complete: true });
    start = nl + 1;
  }
}

function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Some platforms cannot fsync a directory; the rename is still atomic there.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Directory 0700, files 0600, whatever the umask or an older version left (a data directory made before
 * this rule keeps working, tightened on its next start). Best effort: a file system without modes is left as is.
 */
function restrictToOwner(dir: string): void {
  try {
    fs.chmodSync(dir, 0o700);
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isFile()) fs.chmodSync(path.join(dir, entry.name), 0o600);
    }
  } catch {
    // not ours to change (or no modes here): the files' own creation modes still apply
  }
}
