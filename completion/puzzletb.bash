# completion/puzzletb.bash: bash completion for tblookup and tbgen.
# Installed as .../bash-completion/completions/tblookup and .../tbgen, where
# Debian's bash-completion loads it on first use.  Puzzles, metrics and
# query options come from the programs themselves (their hidden
# `--list puzzles|metrics|options [PUZZLE]`), never from a list kept here.

# _puzzletb_words PROGRAM ARGS...: the program's answer, one word a line.
_puzzletb_words()
{
    "$@" 2>/dev/null
}

_tblookup()
{
    local prog=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]}
    local prev=${COMP_WORDS[COMP_CWORD-1]} puzzle= i w qopts=
    for ((i = 1; i < COMP_CWORD; i++)); do
        w=${COMP_WORDS[i]}
        case $w in
            -m|--metric|-f|--format|-i|--input|-o|--option|-t|--tables|--list)
                ((i++)) ;;
            -*) [[ -n $puzzle && " $qopts " == *" $w "* ]] && ((i++)) ;;
            *) [[ -z $puzzle ]] && puzzle=$w &&
                qopts=$(_puzzletb_words "$prog" --list options "$puzzle" |
                        cut -d' ' -f1 | tr '\n' ' ') ;;
        esac
    done
    COMPREPLY=()
    case $prev in
        -m|--metric)
            COMPREPLY=($(compgen -W "$(_puzzletb_words "$prog" --list \
                metrics $puzzle)" -- "$cur")); return ;;
        -f|--format)
            COMPREPLY=($(compgen -W "native json" -- "$cur")); return ;;
        -i|--input) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        -t|--tables) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --list) COMPREPLY=($(compgen -W "puzzles metrics options" -- "$cur"))
            return ;;
        -o|--option)
            COMPREPLY=($(compgen -W "$(_puzzletb_words "$prog" --list \
                options $puzzle | sed 's/^--\([^ ]*\).*/\1=/')" -- "$cur"))
            return ;;
    esac
    if [[ -n $puzzle && " $qopts " == *" $prev "* ]]; then
        # a query option's value: its choices when the help gives them (B|W)
        local syntax
        syntax=$(_puzzletb_words "$prog" --list options "$puzzle" |
                 awk -v o="$prev" '$1 == o { print $2 }')
        [[ $syntax == *"|"* ]] &&
            COMPREPLY=($(compgen -W "${syntax//|/ }" -- "$cur"))
        return
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "--metric --count --moves --format --input
            --batch --bfs --option --stats --verify --tables --levels --level
            --help --version
            $qopts" -- "$cur"))
    elif [[ -z $puzzle ]]; then
        COMPREPLY=($(compgen -W "$(_puzzletb_words "$prog" --list puzzles)" \
            -- "$cur"))
    fi
}

_tbgen()
{
    local prog=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]}
    local prev=${COMP_WORDS[COMP_CWORD-1]} puzzles= i
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            -p|--puzzle) puzzles="$puzzles --puzzle ${COMP_WORDS[i+1]}" ;;
        esac
    done
    COMPREPLY=()
    case $prev in
        -p|--puzzle)
            COMPREPLY=($(compgen -W "$(_puzzletb_words "$prog" --list \
                puzzles)" -- "$cur")); return ;;
        -m|--metric)
            COMPREPLY=($(compgen -W "$(_puzzletb_words "$prog" $puzzles \
                --list metrics)" -- "$cur")); return ;;
        -o|--out) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --family) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        -j|--threads|-l|--level) return ;;
        -e|--encoding)
            COMPREPLY=($(compgen -W "packed1 packed3 packed4 sparse zstd" \
                -- "$cur")); return ;;
    esac
    COMPREPLY=($(compgen -W "--puzzle --metric --out --threads --level
        --encoding --quiet --family --help --version" -- "$cur"))
}

complete -F _tblookup tblookup
complete -F _tbgen tbgen
