#!/usr/bin/env python3
"""A loopback TCP proxy that a fault test cuts and heals: a partition between one
service and one server (e.g. one game host and Redis) while everything else still
reaches that server.

  tcp_proxy.py --port-file FILE --target-file FILE [--mode drop|reject]

It listens on a free loopback port (written to --port-file) and starts cut. Signals:
  SIGUSR2  heal: read HOST:PORT from --target-file and forward new connections there
  SIGUSR1  cut: in `drop` mode (the default, what a partition does) nothing more is
           forwarded either way and new connections are accepted and left hanging, so
           clients see timeouts; in `reject` mode every connection is closed and new
           ones are closed at once. Connections cut stay dead after a heal, as after
           a NAT or firewall state flush: clients connect again.
Each cut and heal is logged to stderr with the time.
"""
import argparse
import asyncio
import os
import signal
import sys
import time


class Proxy:
    def __init__(self, target_file, mode):
        self.target_file = target_file
        self.mode = mode
        self.target = None  # (host, port) while healed
        self.live = set()  # writers of forwarded connections (both ends)
        self.held = set()  # writers of connections accepted while cut
        # Bumped at each cut and heal: a connection forwards only in the generation it was made in.
        self.target_generation = 0

    def log(self, what):
        print(f"tcp_proxy: {time.strftime('%H:%M:%S')} {what}", file=sys.stderr, flush=True)

    def cut(self):
        self.target = None
        if self.mode == "reject":
            for w in list(self.live):
                w.close()
        # drop: the pumps see target None and forward nothing more.
        self.log(f"cut ({self.mode}); {len(self.live) // 2} connections affected")

    def heal(self):
        with open(self.target_file) as f:
            host, port = f.read().strip().rsplit(":", 1)
        for w in list(self.live) + list(self.held):
            w.close()
        self.live.clear()
        self.held.clear()
        self.target = (host, int(port))
        self.log(f"healed: forwarding to {host}:{port}")

    async def pump(self, reader, writer, generation):
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    break
                if self.target is None or self.target_generation != generation:
                    continue  # cut: dropped on the floor
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()
            self.live.discard(writer)

    async def accept(self, reader, writer):
        if self.target is None:
            if self.mode == "reject":
                writer.close()
                return
            self.held.add(writer)  # hangs until healed (then closed)
            try:
                while await reader.read(65536):
                    pass
            except (ConnectionError, OSError):
                pass
            self.held.discard(writer)
            return
        generation = self.target_generation
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError as e:
            self.log(f"cannot reach {self.target}: {e}")
            writer.close()
            return
        self.live.update((writer, up_writer))
        await asyncio.gather(self.pump(reader, up_writer, generation), self.pump(up_reader, writer, generation))


async def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port-file", required=True, help="where to write the port listened on")
    parser.add_argument("--target-file", required=True, help="HOST:PORT to forward to, read at each heal")
    parser.add_argument("--mode", choices=["drop", "reject"], default="drop", help="what a cut does (default drop)")
    args = parser.parse_args()
    proxy = Proxy(args.target_file, args.mode)

    def on_heal():
        proxy.target_generation += 1
        proxy.heal()

    def on_cut():
        proxy.target_generation += 1
        proxy.cut()

    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGUSR2, on_heal)
    loop.add_signal_handler(signal.SIGUSR1, on_cut)
    loop.add_signal_handler(signal.SIGTERM, loop.stop)
    server = await asyncio.start_server(proxy.accept, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    with open(args.port_file + ".tmp", "w") as f:
        f.write(f"{port}\n")
    os.replace(args.port_file + ".tmp", args.port_file)
    proxy.log(f"listening on 127.0.0.1:{port}, cut until healed")
    async with server:
        await asyncio.Event().wait()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except RuntimeError:
        pass  # stopped by SIGTERM
