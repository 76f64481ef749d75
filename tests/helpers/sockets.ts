// The kernel's view of IPv4 loopback connections (/proc/net/tcp), for tests that must know
// what a server has read or closed rather than guess it with a pause.
import fs from 'node:fs';

export interface TcpEntry {
  local: number;
  remote: number;
  /** Hex state: 01 established, 08 close-wait, 0A listen, ... */
  state: string;
  /** Bytes sent but not acknowledged by the peer, and received but not read by the owner. */
  txQueue: number;
  rxQueue: number;
  inode: number;
}

export function tcpTable(): TcpEntry[] {
  const out: TcpEntry[] = [];
  for (const line of fs.readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10) continue;
    const port = (addr: string) => parseInt(addr.split(':')[1]!, 16);
    const [tx, rx] = f[4]!.split(':').map((h) => parseInt(h, 16)) as [number, number];
    out.push({ local: port(f[1]!), remote: port(f[2]!), state: f[3]!, txQueue: tx, rxQueue: rx, inode: Number(f[9]) });
  }
  return out;
}

/** Inodes of the sockets this process holds. */
function ownSockets(): Set<number> {
  const own = new Set<number>();
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    let target = '';
    try {
      target = fs.readlinkSync(`/proc/self/fd/${fd}`, { encoding: 'utf8' });
    } catch {
      continue; // closed meanwhile
    }
    const m = /^socket:\[(\d+)\]$/.exec(target);
    if (m) own.add(Number(m[1]));
  }
  return own;
}

/**
 * The server's ends (on `port`) of connections that another process (a browser) opened and
 * that the server has not closed yet: established, or closed by the peer but not by the server.
 */
export function openConnectionsFromOthers(port: number): number {
  const table = tcpTable();
  const own = ownSockets();
  return table.filter((e) => {
    if (e.local !== port || (e.state !== '01' && e.state !== '08')) return false;
    const peer = table.find((p) => p.local === e.remote && p.remote === port);
    return !peer || !own.has(peer.inode);
  }).length;
}
