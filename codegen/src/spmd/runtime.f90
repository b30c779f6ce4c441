! The run-time part of every program `kaiseki spmd` writes: MPI set-up,
! the message counter, and the two transfer patterns. Every element
! travels as a DOUBLE PRECISION value (exact for INTEGER and REAL).
! Lines stay short: the renderer indents them for fixed or free form.
MODULE kaiseki_spmd
USE mpi
USE, INTRINSIC :: iso_fortran_env, ONLY: error_unit
USE, INTRINSIC :: ieee_arithmetic, ONLY: ieee_value, &
ieee_negative_inf, ieee_positive_inf
IMPLICIT NONE
INTEGER :: kc_me = 0, kc_np = 1, kc_err
INTEGER :: kc_i1, kc_i2, kc_i3, kc_i4, kc_i5, kc_i6, kc_i7
INTEGER :: kc_j1, kc_j2, kc_j3, kc_j4, kc_j5, kc_j6, kc_j7
! A reduction: the elements of the section, and the value so far.
INTEGER :: kc_rn
DOUBLE PRECISION :: kc_rv
INTEGER(8) :: kc_msgs = 0, kc_bytes = 0
DOUBLE PRECISION :: kc_v
INTEGER, ALLOCATABLE :: kc_ns(:), kc_nr(:)
TYPE kc_buffer
DOUBLE PRECISION, ALLOCATABLE :: v(:)
END TYPE kc_buffer
TYPE(kc_buffer), ALLOCATABLE :: kc_sb(:), kc_rb(:)
TYPE(kc_buffer) :: kc_all
!KC-DECLARATIONS
CONTAINS
SUBROUTINE kc_init()
INTEGER :: r
CALL MPI_Init(kc_err)
CALL MPI_Comm_rank(MPI_COMM_WORLD, kc_me, kc_err)
CALL MPI_Comm_size(MPI_COMM_WORLD, kc_np, kc_err)
!KC-PROCS
ALLOCATE(kc_ns(0:kc_np-1), kc_nr(0:kc_np-1))
ALLOCATE(kc_sb(0:kc_np-1), kc_rb(0:kc_np-1))
DO r = 0, kc_np - 1
ALLOCATE(kc_sb(r)%v(64), kc_rb(r)%v(64))
END DO
ALLOCATE(kc_all%v(64))
END SUBROUTINE kc_init
! Rank 0 writes the totals of every rank's count to standard error.
SUBROUTINE kc_finish()
INTEGER(8) :: mine(2), total(2)
mine(1) = kc_msgs
mine(2) = kc_bytes
CALL MPI_Reduce(mine, total, 2, MPI_INTEGER8, MPI_SUM, 0, &
MPI_COMM_WORLD, kc_err)
IF (kc_me == 0) WRITE (error_unit, '(A,I0,A,I0)') &
'kaiseki-spmd: messages=', total(1), ' bytes=', total(2)
CALL MPI_Finalize(kc_err)
END SUBROUTINE kc_finish
SUBROUTINE kc_grow(b, n)
TYPE(kc_buffer), INTENT(INOUT) :: b
INTEGER, INTENT(IN) :: n
DOUBLE PRECISION, ALLOCATABLE :: t(:)
IF (n <= SIZE(b%v)) RETURN
ALLOCATE(t(2 * n))
t(1:SIZE(b%v)) = b%v
CALL MOVE_ALLOC(t, b%v)
END SUBROUTINE kc_grow
! The rank's grid of e(1:nd) processors for nd distributed dimensions:
! the given arrangement when it has kc_np processors, else the most
! square one.
SUBROUTINE kc_grid(nd, given, e)
INTEGER, INTENT(IN) :: nd, given(nd)
INTEGER, INTENT(OUT) :: e(nd)
INTEGER :: left, k, f
IF (PRODUCT(given) == kc_np) THEN
e = given
RETURN
END IF
left = kc_np
DO k = 1, nd
f = NINT(DBLE(left) ** (1D0 / DBLE(nd - k + 1)))
f = MAX(1, MIN(f, left))
DO WHILE (MOD(left, f) /= 0)
f = f - 1
END DO
e(k) = f
left = left / f
END DO
e(nd) = e(nd) * left
END SUBROUTINE kc_grid
! The processor coordinate of template position t in a dimension of
! lo:hi distributed over e processors: BLOCK (k = 0), BLOCK(k) (k > 0)
! or CYCLIC(k) (k < 0).
INTEGER FUNCTION kc_coord(t, lo, hi, e, k)
INTEGER, INTENT(IN) :: t, lo, hi, e, k
IF (k == 0) THEN
kc_coord = (t - lo) / ((hi - lo + e) / e)
ELSE IF (k > 0) THEN
kc_coord = (t - lo) / k
ELSE
kc_coord = MOD((t - lo) / (-k), e)
END IF
kc_coord = MAX(0, MIN(e - 1, kc_coord))
END FUNCTION kc_coord
! The loops of an owner-computes array statement over the elements of
! one section dimension this rank may own: the first (first = .TRUE.)
! or last k of 0:last whose template position t0 + dt*k lies at this
! rank's coordinate along dimension d of the nd-dimensional grid, a
! BLOCK dimension of lo:hi (kf as in kc_coord), where the coordinate is
! monotone in k; last + 1 or -1 when there is none.
INTEGER FUNCTION kc_edge(t0, dt, last, lo, hi, nd, given, d, kf, first)
INTEGER, INTENT(IN) :: t0, dt, last, lo, hi, nd, given(nd), d, kf
LOGICAL, INTENT(IN) :: first
INTEGER :: e(nd), m, i, a, b, c, want
CALL kc_grid(nd, given, e)
m = kc_me
DO i = 1, d - 1
m = m / e(i)
END DO
m = MOD(m, e(d))
! The first k whose coordinate is at or past m (first), or past m.
want = 0
IF (.NOT. first) want = 1
a = 0
b = last + 1
DO WHILE (a < b)
c = (a + b) / 2
i = kc_coord(t0 + dt * c, lo, hi, e(d), kf) - m
IF (dt < 0) i = -i
IF (i >= want) THEN
b = c
ELSE
a = c + 1
END IF
END DO
kc_edge = a
IF (.NOT. first) kc_edge = a - 1
END FUNCTION kc_edge
! Point to point, pass 1: processor p reads an element q owns (value
! x at q); pass 2 after kc_exchange: kc_take says where one arrived.
SUBROUTINE kc_start()
kc_ns = 0
kc_nr = 0
END SUBROUTINE kc_start
SUBROUTINE kc_list(q, p, x)
INTEGER, INTENT(IN) :: q, p
DOUBLE PRECISION, INTENT(IN) :: x
IF (q == p) RETURN
IF (kc_me == q) THEN
kc_ns(p) = kc_ns(p) + 1
CALL kc_grow(kc_sb(p), kc_ns(p))
kc_sb(p)%v(kc_ns(p)) = x
ELSE IF (kc_me == p) THEN
kc_nr(q) = kc_nr(q) + 1
END IF
END SUBROUTINE kc_list
SUBROUTINE kc_exchange()
INTEGER :: r, n
INTEGER :: req(kc_np)
n = 0
DO r = 0, kc_np - 1
IF (kc_ns(r) > 0) THEN
n = n + 1
CALL MPI_Isend(kc_sb(r)%v, kc_ns(r), MPI_DOUBLE_PRECISION, &
r, 7, MPI_COMM_WORLD, req(n), kc_err)
kc_msgs = kc_msgs + 1
kc_bytes = kc_bytes + 8 * kc_ns(r)
END IF
END DO
DO r = 0, kc_np - 1
IF (kc_nr(r) > 0) THEN
CALL kc_grow(kc_rb(r), kc_nr(r))
CALL MPI_Recv(kc_rb(r)%v, kc_nr(r), MPI_DOUBLE_PRECISION, &
r, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE, kc_err)
END IF
END DO
CALL MPI_Waitall(n, req, MPI_STATUSES_IGNORE, kc_err)
kc_nr = 0
END SUBROUTINE kc_exchange
LOGICAL FUNCTION kc_take(q, p)
INTEGER, INTENT(IN) :: q, p
kc_take = q /= p .AND. kc_me == p
IF (.NOT. kc_take) RETURN
kc_nr(q) = kc_nr(q) + 1
kc_v = kc_rb(q)%v(kc_nr(q))
END FUNCTION kc_take
! Broadcast from the owners, pass 1: an element q owns (value x at
! q); pass 2 after kc_share: kc_got says where one arrived. kc_share is
! one collective (each owner's part to every rank), not one broadcast
! per owner: ranks sharing cores wait for each collective.
SUBROUTINE kc_put(q, x)
INTEGER, INTENT(IN) :: q
DOUBLE PRECISION, INTENT(IN) :: x
kc_ns(q) = kc_ns(q) + 1
IF (kc_me == q) THEN
CALL kc_grow(kc_sb(q), kc_ns(q))
kc_sb(q)%v(kc_ns(q)) = x
END IF
END SUBROUTINE kc_put
SUBROUTINE kc_share()
INTEGER :: r, total
INTEGER :: at(0:kc_np-1)
kc_nr = 0
IF (kc_np == 1) RETURN
at(0) = 0
DO r = 1, kc_np - 1
at(r) = at(r-1) + kc_ns(r-1)
END DO
total = at(kc_np-1) + kc_ns(kc_np-1)
IF (total == 0) RETURN
CALL kc_grow(kc_sb(kc_me), kc_ns(kc_me))
CALL kc_grow(kc_all, total)
CALL MPI_Allgatherv(kc_sb(kc_me)%v, kc_ns(kc_me), &
MPI_DOUBLE_PRECISION, kc_all%v, kc_ns, at, &
MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, kc_err)
DO r = 0, kc_np - 1
IF (r /= kc_me .AND. kc_ns(r) > 0) THEN
CALL kc_grow(kc_sb(r), kc_ns(r))
kc_sb(r)%v(1:kc_ns(r)) = kc_all%v(at(r)+1:at(r)+kc_ns(r))
END IF
END DO
IF (kc_ns(kc_me) > 0) THEN
kc_msgs = kc_msgs + 1
kc_bytes = kc_bytes + 8 * kc_ns(kc_me)
END IF
END SUBROUTINE kc_share
LOGICAL FUNCTION kc_got(q)
INTEGER, INTENT(IN) :: q
kc_got = kc_me /= q
IF (.NOT. kc_got) RETURN
kc_nr(q) = kc_nr(q) + 1
kc_v = kc_sb(q)%v(kc_nr(q))
END FUNCTION kc_got
! A reduction (op MAX, MIN or SUM): each rank folds the elements it
! owns into kc_rv from the identity (an empty part changes nothing),
! then one MPI_Allreduce combines the ranks' values (one message of
! 8 bytes per rank). MAX and MIN are exact in DOUBLE PRECISION for
! INTEGER, REAL and DOUBLE elements, SUM for INTEGER ones.
SUBROUTINE kc_fold_start(op)
CHARACTER(*), INTENT(IN) :: op
kc_rn = 0
SELECT CASE (op)
CASE ('MAX')
kc_rv = ieee_value(kc_rv, ieee_negative_inf)
CASE ('MIN')
kc_rv = ieee_value(kc_rv, ieee_positive_inf)
CASE DEFAULT
kc_rv = 0
END SELECT
END SUBROUTINE kc_fold_start
SUBROUTINE kc_fold_end(op)
CHARACTER(*), INTENT(IN) :: op
INTEGER :: mop
IF (kc_np == 1) RETURN
SELECT CASE (op)
CASE ('MAX')
mop = MPI_MAX
CASE ('MIN')
mop = MPI_MIN
CASE DEFAULT
mop = MPI_SUM
END SELECT
CALL MPI_Allreduce(MPI_IN_PLACE, kc_rv, 1, MPI_DOUBLE_PRECISION, &
mop, MPI_COMM_WORLD, kc_err)
kc_msgs = kc_msgs + 1
kc_bytes = kc_bytes + 8
END SUBROUTINE kc_fold_end
! What rank 0 read goes to every rank: n items of type t.
SUBROUTINE kc_counted(n, t)
INTEGER, INTENT(IN) :: n, t
INTEGER :: s
IF (kc_me /= 0 .OR. kc_np == 1) RETURN
CALL MPI_Type_size(t, s, kc_err)
kc_msgs = kc_msgs + 1
kc_bytes = kc_bytes + INT(n, 8) * s
END SUBROUTINE kc_counted
!KC-OWNERS
END MODULE kaiseki_spmd
