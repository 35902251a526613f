#!/bin/sh
# Nightly catalog job (crontab: 30 2 * * * /opt/store/nightly-catalog.sh).
# Credentials come from the environment, so no profile or keychain is needed on the server: set STORE_TOKEN,
# STORE_ID, STORE_API_URL, STORE_APP_NAME and STORE_APP_ID in the cron environment.
# The ERP leaves catalog.csv and stock.csv in STORE_FEED_DIR (default /var/lib/store-feed); failed rows are
# written beside them. Exit code: 0 all done, 3 some rows failed (see the reports), else the failing step's.
set -u
: "${STORE_TOKEN:?is not set}" "${STORE_ID:?is not set}" "${STORE_API_URL:?is not set}"
export STORE_TOKEN STORE_ID STORE_API_URL
DIR=${STORE_FEED_DIR:-/var/lib/store-feed}
DAY=$(date +%F)

# 1. The catalog: creates what is missing, updates what differs, deletes only rows that say DELETE.
#    An interrupted run of the same file (reboot, kill) is finished by --resume.
store products import "$DIR/catalog.csv" --resume --quiet --report "$DIR/failed-$DAY.csv"
catalog=$?
case $catalog in
  0) ;;
  3) echo "some products failed; see $DIR/failed-$DAY.csv" >&2 ;;
  2) echo "catalog.csv is invalid; nothing was sent" >&2; exit 2 ;;
  *) exit $catalog ;;
esac

# 2. Stock and prices from the ERP; variants missing from a complete feed are sold out.
store variants sync "$DIR/stock.csv" --zero-missing --quiet --report "$DIR/sync-failed-$DAY.csv"
stock=$?
case $stock in
  0) exit $catalog ;;
  3) echo "some variants failed; see $DIR/sync-failed-$DAY.csv" >&2; exit 3 ;;
  *) exit $stock ;;
esac
