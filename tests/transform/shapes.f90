! Loop transformations on free-form loops whose trip counts are read at
! run time (the aligned loop keeps its original form for short runs):
! each block prints checksums the transformed program must print too.
program shapes
  implicit none
  integer, parameter :: m = 60
  real :: a(m), b(m), c(m), d(m), aa(m, m), bb(m, m)
  real :: t, x
  integer :: i, j, n, k
  do k = 1, 4
    n = k
    if (k == 4) n = m
    do i = 1, m
      a(i) = mod(i * 7, 11)
      b(i) = mod(i * 5, 13) - 6
      c(i) = mod(i, 3)
      d(i) = 0
      do j = 1, m
        aa(i, j) = mod(i + j, 5)
        bb(i, j) = mod(i * j, 3)
      end do
    end do
    ! Alignment: D reads the A the previous iteration wrote.
    do i = 2, n
      a(i) = b(i) + c(i)
      d(i) = a(i - 1) * 2
    end do
    print *, n, sum(a), sum(d)
    ! Alignment with a scalar carried to the next iteration (expanded,
    ! then private to the aligned loop) and read after the loop.
    t = 1
    do i = 1, n
      d(i) = t * 2 + c(i)
      t = a(i) + c(i)
    end do
    print *, n, t, sum(d)
    ! Alignment by two iterations.
    do i = 3, n
      a(i) = b(i) * 2
      c(i) = a(i - 2) + 1
      d(i) = c(i - 1) + b(i)
    end do
    print *, n, sum(a), sum(c), sum(d)
    ! Distribution: the recurrence on B apart from the parallel part.
    x = 0
    do i = 2, n
      c(i) = a(i) * 3
      b(i) = mod(b(i - 1) + c(i), 7.0)
      d(i) = c(i) - 1
      x = x + d(i)
    end do
    print *, n, x, sum(b), sum(c), sum(d)
    ! Interchange: the parallel loop is inside.
    do j = 2, n
      do i = 1, n
        aa(i, j) = mod(aa(i, j - 1) + bb(i, j), 11.0)
      end do
    end do
    print *, n, sum(aa)
  end do
end program shapes
