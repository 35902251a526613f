#!/bin/sh
# Nightly catalog job (crontab: 30 2 * * * /opt/store/nightly-catalog.sh).
# Credentials come from the environment, so no profile or keychain is needed on the server.
set -u
export STORE_TOKEN STORE_ID            # set these in the cron environment
DIR=/var/lib/store-feed
DAY=$(date +%F)

# 1. The catalog: creates what is missing, updates what differs, never deletes.
#    An interrupted run of the same file (reboot, kill) is finished by --resume.
store products import "$DIR/catalog.csv" --resume --quiet --report "$DIR/failed-$DAY.csv"
status=$?
case $status in
  0) ;;
  2) echo "catalog.csv is invalid; nothing was sent" >&2; exit 2 ;;
  3) echo "some products failed; see $DIR/failed-$DAY.csv" >&2 ;;
  *) exit $status ;;
esac

# 2. Stock and prices from the ERP; variants missing from a complete feed are sold out.
store variants sync "$DIR/stock.csv" --zero-missing --quiet --report "$DIR/sync-failed-$DAY.csv"
