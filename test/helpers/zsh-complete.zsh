# Usage: zsh -f zsh-complete.zsh SETUP OUT LINE
# Runs an interactive zsh on a pseudo-terminal (zsh/zpty), evaluates SETUP (the line a user appends to
# ~/.zshrc), types LINE and a Tab, and appends every match the completion system offers to the file OUT.
# Each step waits for the prompt, so no keystroke is typed ahead of the shell.
setup=$1 out=$2 line=$3
zmodload zsh/zpty
zpty z zsh -f -i
send() { zpty -w z "$1"; zpty -r -m z reply '*READY>*' }
# Quoted apart so that the echo of the command never matches the prompt.
send "PS1='REA''DY>'"
send "$setup"
# compadd records the matches it is given (calls that only query, -O/-A/-D, pass through).
send 'compadd() { if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi; typeset -a hits; builtin compadd -A hits "$@"; (( $#hits )) && print -l -- $hits >> '"${(q)out}"'; builtin compadd "$@"; }'
zpty -w -n z "$line"$'\t'
# Ctrl-U clears the line; the arithmetic keeps the marker out of the echo.
zpty -w z $'\x15print COMPLETION-$((40+2))'
zpty -r -m z reply '*COMPLETION-42*'
zpty -d z
