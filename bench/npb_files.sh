# The NAS Parallel Benchmarks' Fortran files in build order (each
# Makefile's objects, modules first) and the common files each links.
# Sourced by bench/npb_openmp.sh and bench/npb_loops.sh.
npb_files() {
    case $1 in
    bt) echo bt_data bt initialize exact_solution exact_rhs set_constants adi rhs work_lhs \
        x_solve y_solve solve_subs z_solve add error verify ;;
    sp) echo sp_data sp initialize exact_solution exact_rhs set_constants adi rhs work_lhs \
        x_solve ninvr y_solve pinvr z_solve tzetar add txinvr error verify ;;
    lu) echo lu_data lu read_input domain setcoeff setbv exact setiv erhs ssor rhs l2norm \
        jacld blts jacu buts error pintgr verify syncs ;;
    *) echo "$1"_data "$1" ;;
    esac
}
npb_common_files() {
    case $1 in
    mg | cg | ft | ep) echo print_results randi8 timers ;;
    *) echo print_results timers ;;
    esac
}
