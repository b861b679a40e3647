#!/usr/bin/env node
/** The `parcel` command line (the package's bin); `parcel --help` lists its commands. */
import { main } from './cli/main.ts';

process.exitCode = await main(process.argv.slice(2));
