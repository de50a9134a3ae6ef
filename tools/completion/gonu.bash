# bash completion for gonu: the commands, each command's options, the values of the options that
# take a fixed set (rule set names, capture, repetition, ...), and file names for table files.
# Installed as share/bash-completion/completions/gonu; tests/test_man_page.py checks that it names
# every command and every option of `gonu COMMAND --help`. Try it with: source tools/completion/gonu.bash

_gonu_rule_options="--rules --capture --corner --repetition --board --first"

_gonu_options() {
  case "$1" in
    check-certificate | info | repack) echo "--help" ;;
    rules) echo "--game --help" ;;
    show) echo "$_gonu_rule_options --game --hobbling --promotion --stalemate --lancer --help" ;;
    moves) echo "$_gonu_rule_options --game --hobbling --promotion --stalemate --lancer --history --help" ;;
    perft) echo "$_gonu_rule_options --game --hobbling --promotion --stalemate --lancer --history --divide --json --help" ;;
    solve)
      echo "$_gonu_rule_options --game --hobbling --promotion --stalemate --lancer --material --all --dir --plan --from --history --threads --max-states --max-memory --engine --verify --json" \
           "--stats --stats-csv --levels --out --quiet --mpi --checkpoint" \
           "--strategy-seconds --strategy-method --strategy-solver --strategy-memory --strategy-depth --strategy-layers --entry-layers --entry-seconds --entry-budget --cube --resume --max-searches" \
           "--no-strategy --no-search --search --dfpn-layer --dfpn-table --max-nodes" \
           "--max-seconds --certificate --table-entries --relevant-boards --subset-boards --dfpn-own-frame --no-banfree-leaves --no-table --help"
      ;;
    query) echo "--history --json --certificate --help" ;;
    play) echo "--history --as --vary --seed --values --certificate --rules --capture --corner --repetition --board --first --help" ;;
    verify) echo "--quiet --sample --max-memory --help" ;;
    serve) echo "--certificate --max-memory --host --port --help" ;;
  esac
}

_gonu() {
  local cur prev cmd
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_WORDS[COMP_CWORD - 1]}
  if ((COMP_CWORD == 1)); then
    mapfile -t COMPREPLY < <(compgen -W "rules show moves perft solve check-certificate query play verify info repack serve --help --version" -- "$cur")
    return
  fi
  cmd=${COMP_WORDS[1]}
  case "$prev" in  # values of the options that take a fixed set
    --rules) mapfile -t COMPREPLY < <(compgen -W "free encyclopedia undo soldiers corner" -- "$cur"); return ;;
    --capture) mapfile -t COMPREPLY < <(compgen -W "line single" -- "$cur"); return ;;
    --repetition) mapfile -t COMPREPLY < <(compgen -W "none immediate undo superko" -- "$cur"); return ;;
    --game) mapfile -t COMPREPLY < <(compgen -W "julgonu jungi" -- "$cur"); return ;;
    --hobbling) mapfile -t COMPREPLY < <(compgen -W "on off" -- "$cur"); return ;;
    --promotion) mapfile -t COMPREPLY < <(compgen -W "compulsory optional" -- "$cur"); return ;;
    --stalemate) mapfile -t COMPREPLY < <(compgen -W "loss draw" -- "$cur"); return ;;
    --lancer) mapfile -t COMPREPLY < <(compgen -W "standard queen" -- "$cur"); return ;;
    --first) mapfile -t COMPREPLY < <(compgen -W "black white" -- "$cur"); return ;;
    --as) mapfile -t COMPREPLY < <(compgen -W "black white both south north" -- "$cur"); return ;;
    --values) mapfile -t COMPREPLY < <(compgen -W "on off" -- "$cur"); return ;;
    --engine) mapfile -t COMPREPLY < <(compgen -W "auto dense compact graph" -- "$cur"); return ;;
    --strategy-method) mapfile -t COMPREPLY < <(compgen -W "injective lazy lazy-local" -- "$cur"); return ;;
    --search) mapfile -t COMPREPLY < <(compgen -W "depth-first dfpn" -- "$cur"); return ;;
    --dfpn-layer) mapfile -t COMPREPLY < <(compgen -W "2-2 2-3 3-2 3-3" -- "$cur"); return ;;
    --strategy-solver) mapfile -t COMPREPLY < <(compgen -W "sat ilp ilp-feasible" -- "$cur"); return ;;
    --board) mapfile -t COMPREPLY < <(compgen -W "2x2 2x3 3x3 3x4 4x4" -- "$cur"); return ;;
    --out | --certificate | --stats-csv | --checkpoint | --resume | --dfpn-table) mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return ;;
    --dir) mapfile -t COMPREPLY < <(compgen -d -- "$cur"); return ;;
    --from | --history | --threads | --max-states | --max-memory | --strategy-seconds | --strategy-memory | --strategy-depth | --strategy-layers | --entry-seconds | --entry-budget | \
      --max-searches | --max-nodes | --max-seconds | --table-entries | --relevant-boards | --seed | --host | --port) return ;;
  esac
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_gonu_options "$cmd")" -- "$cur")
    return
  fi
  case "$cmd" in  # the FILE argument
    query | play | verify | info | repack | check-certificate | serve) mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
  esac
}

complete -F _gonu gonu
