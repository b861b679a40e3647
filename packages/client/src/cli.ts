#!/usr/bin/env node
/** The `parcelctl` command line (the package's bin); `parcelctl --help` lists its commands. */
import { main } from './cli/main.ts';

process.exitCode = await main(process.argv.slice(2));
