"""Run the bot: ``python -m bot`` (needs DISCORD_TOKEN) or ``python -m bot --preview``."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

import discord

from bot.config import ConfigError, load_config


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    parser.add_argument(
        "--preview",
        action="store_true",
        help="run against SimCord's local Preview in your browser: no token, throwaway database",
    )
    parser.add_argument(
        "--port", type=int, default=None, help="port for --preview (default: a free one)"
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    args = parse_args(argv)
    try:
        config = load_config(require_token=not args.preview)
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    discord.utils.setup_logging(level=getattr(logging, config.log_level), root=True)
    if args.preview:
        from bot.preview import PreviewUnavailable, run_preview

        try:
            asyncio.run(run_preview(config, port=args.port))
        except PreviewUnavailable as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            print("preview stopped")
        return 0
    from bot.client import KasinoBot

    bot = KasinoBot(config)
    assert config.token is not None
    bot.run(config.token, log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
