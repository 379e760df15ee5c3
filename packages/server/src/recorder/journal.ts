import {
  closeSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { NewContextInput } from '@baton/core';
import { newId } from '../hub/ids.js';
import type { RecorderLogger } from './logger.js';

/** A value as one JSON line in UTF-8 bytes, newline included, encoded straight into a Buffer (no second string). */
export function jsonLine(value: unknown): Buffer {
  const json = JSON.stringify(value);
  const line = Buffer.allocUnsafe(Buffer.byteLength(json) + 1);
  line.write(json);
  line[line.length - 1] = 0x0a;
  return line;
}

/**
 * The recorder's write-ahead journal: every turn is appended to a local file
 * (one JSON line, a plain `write(2)`) before the recorder hands it to the hub,
 * so a prompt is durable the moment the provider call starts without waiting
 * for a round trip. The data sits in the OS page cache once `write` returns,
 * which is what surviving `kill -9` takes (an OS crash is not covered).
 *
 * A journal holds only what the hub may not have yet: whenever every turn
 * handed over is stored, the file is cut back to its header. A recorder that
 * dies leaves its file behind; the next recorder writing to the same hub
 * finds it (its process is gone), replays its turns — appends are idempotent
 * by turn id, so turns that did arrive are no-ops — and deletes it.
 *
 * File: `<pid>-<ulid>.jsonl` in the journal directory; line 1 is the header
 * (target, context, how to create it), each further line one turn.
 */
export interface JournalHeader {
  journal: 'baton-recorder';
  version: 1;
  /** Where the turns go: `url:<hub>` or `dir:<data directory>`; only a recorder with the same target replays it. */
  target: string;
  contextId: string;
  context: NewContextInput;
}

const SUFFIX = '.jsonl';
const CLAIMED = `${SUFFIX}.replay`;

export class TurnJournal {
  readonly path: string;
  readonly #fd: number;
  readonly #headerBytes: number;
  readonly #maxBytes: number;
  readonly #log: RecorderLogger;
  #bytes: number;
  /** Set once a turn was lost from memory before being stored: the file is then kept whole for replay. */
  #keepAll = false;
  #full = false;
  #closed = false;

  private constructor(path: string, fd: number, headerBytes: number, maxBytes: number, log: RecorderLogger) {
    this.path = path;
    this.#fd = fd;
    this.#headerBytes = headerBytes;
    this.#bytes = headerBytes;
    this.#maxBytes = maxBytes;
    this.#log = log;
  }

  /** Opens a new journal file for this process, or null (logged) when the directory cannot be written. */
  static open(dir: string, header: Omit<JournalHeader, 'journal' | 'version'>, maxBytes: number, log: RecorderLogger): TurnJournal | null {
    try {
      mkdirSync(dir, { recursive: true });
      const path = join(dir, `${process.pid}-${newId()}${SUFFIX}`);
      // Appended to, and read back from when the hub falls behind by more than the writer's memory holds.
      const fd = openSync(path, 'a+');
      const headerBytes = writeSync(fd, jsonLine({ journal: 'baton-recorder', version: 1, ...header } satisfies JournalHeader));
      return new TurnJournal(path, fd, headerBytes, maxBytes, log);
    } catch (error) {
      log.warn({ err: String(error), dir }, 'the recorder journal cannot be opened; prompts wait for the hub instead');
      return null;
    }
  }

  /**
   * Appends a turn (one JSON line, newline included): where it lies in the
   * file, or null when it could not be journaled (the caller then waits for the hub).
   */
  write(line: Uint8Array): JournalRef | null {
    if (this.#closed || this.#full) return null;
    try {
      if (this.#bytes + line.byteLength > this.#maxBytes) {
        this.#full = true;
        this.#log.warn({ path: this.path, bytes: this.#bytes }, 'the recorder journal is full; new turns are not journaled');
        return null;
      }
      const offset = this.#bytes;
      const written = writeSync(this.#fd, line);
      this.#bytes += written;
      return written === line.byteLength ? { offset, length: written } : null;
    } catch (error) {
      this.#full = true;
      this.#log.warn({ err: String(error), path: this.path }, 'writing the recorder journal failed; new turns are not journaled');
      return null;
    }
  }

  /** A turn was dropped from memory unstored: keep the file whole so the next recorder replays it. */
  keepAll(): void {
    this.#keepAll = true;
  }

  /**
   * A journaled turn's bytes, read back for a writer that moved it out of
   * memory (the hub fell behind by more than its buffer); null when the file
   * cannot be read.
   */
  read(at: JournalRef): Buffer | null {
    if (this.#closed) return null;
    try {
      const bytes = Buffer.allocUnsafeSlow(at.length);
      return readSync(this.#fd, bytes, 0, at.length, at.offset) === at.length ? bytes : null;
    } catch (error) {
      this.#log.warn({ err: String(error), path: this.path }, 'reading a turn back from the recorder journal failed');
      return null;
    }
  }

  /** Every turn handed over so far is stored: cut the file back to its header. */
  settled(): void {
    if (this.#closed || this.#keepAll || this.#bytes === this.#headerBytes) return;
    try {
      ftruncateSync(this.#fd, this.#headerBytes);
      this.#bytes = this.#headerBytes;
      this.#full = false;
    } catch (error) {
      this.#log.warn({ err: String(error), path: this.path }, 'cutting the recorder journal failed');
    }
  }

  /** Closes the file; deletes it when it holds nothing unstored, else leaves it for the next recorder to replay. */
  close(allStored: boolean): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      const empty = allStored && !this.#keepAll;
      closeSync(this.#fd);
      if (empty) unlinkSync(this.path);
      else
        this.#log.warn(
          { path: this.path },
          'turns not yet stored stay in the recorder journal; the next recorder for this hub replays them',
        );
    } catch (error) {
      this.#log.warn({ err: String(error), path: this.path }, 'closing the recorder journal failed');
    }
  }
}

/** Where a turn's line lies in its journal file. */
export interface JournalRef {
  offset: number;
  length: number;
}

/** A journal left by a process that is gone, claimed by this one for replay. */
export interface OrphanJournal {
  path: string;
  header: JournalHeader;
  /** Each turn's JSON line, as written (the hub takes them as they are). */
  lines: Buffer[];
}

/**
 * Finds journals for `target` whose writing process has exited, and claims
 * each (an atomic rename to this process's name, so two recorders starting
 * together never replay the same file). A torn last line — the process died
 * mid-write — is skipped.
 */
export function claimOrphans(dir: string, target: string, log: RecorderLogger): OrphanJournal[] {
  let names: string[];
  try {
    // `.replay`: claimed by a recorder that exited before it finished.
    names = readdirSync(dir).filter((name) => name.endsWith(SUFFIX) || name.endsWith(CLAIMED));
  } catch {
    return [];
  }
  const claimed: OrphanJournal[] = [];
  for (const name of names) {
    const pid = Number(name.slice(0, name.indexOf('-')));
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || isAlive(pid)) continue;
    const from = join(dir, name);
    // Only the header decides; journals of other hubs are not read further.
    const header = parseLine(firstLine(from)) as JournalHeader | null;
    if (header?.journal !== 'baton-recorder' || header.target !== target) continue;
    const to = join(dir, `${process.pid}-${newId()}${CLAIMED}`);
    let lines: Buffer[];
    try {
      renameSync(from, to);
      lines = turnLines(readFileSync(to));
    } catch {
      continue; // another recorder claimed it first
    }
    log.info(
      { path: from, turns: lines.length, contextId: header.contextId },
      'replaying a recorder journal left by a process that exited',
    );
    claimed.push({ path: to, header, lines });
  }
  return claimed;
}

/** Done with a claimed journal: every turn is stored. */
export function removeClaimed(path: string): void {
  try {
    unlinkSync(path);
  } catch {}
}

/** Gives a claimed journal back under its original-style name, so a later recorder retries it. */
export function releaseClaimed(path: string): void {
  try {
    renameSync(path, path.slice(0, -CLAIMED.length) + SUFFIX);
  } catch {}
}

/** The first line of a file (the header), read without reading the rest; '' when there is none in the first 64 KiB. */
function firstLine(path: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(64 * 1024);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    const end = buffer.subarray(0, read).indexOf(10);
    return end === -1 ? '' : buffer.toString('utf8', 0, end);
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The turn lines of a journal file: every line after the header that parses as JSON (a torn last line does not). */
function turnLines(file: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = file.indexOf(0x0a) + 1;
  while (start > 0 && start < file.length) {
    const end = file.indexOf(0x0a, start);
    const line = file.subarray(start, end === -1 ? file.length : end);
    if (parseLine(line.toString('utf8'))) lines.push(line);
    start = end + 1;
  }
  return lines;
}

function parseLine(line: string | undefined): unknown {
  if (!line) return null;
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
