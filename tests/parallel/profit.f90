! Where a parallel region is worth its cost: the loop over I calls F,
! whose own loop is parallel but runs inside the region (no directive in
! F); the loop over the five components M of a point is short, and so is
! the loop over L of three iterations; the J loop around them carries a
! dependence, so only their own directives could make them parallel, and
! the loop over the 1,000 elements of A inside it would open a region in
! each of its iterations for less work than a region costs. SMOOTH's first
! loop, over N elements known at run time, gets an IF clause; the others none.
program profit
  implicit none
  integer :: i, j, m, l
  real :: a(1000), b(1000), u(5, 1000), w(3), big(20000), big2(20000)
  do i = 1, 1000
    a(i) = mod(i * 7, 13)
  end do
  do i = 1, 1000
    b(i) = f(a(i))
  end do
  do m = 1, 5
    u(m, 1) = m
  end do
  do j = 2, 1000
    do m = 1, 5
      u(m, j) = u(m, j - 1) + b(j)
    end do
    do l = 1, 3
      w(l) = u(l, j) * 2
    end do
    do i = 1, 1000
      a(i) = a(i) + u(1, j) * 1.0e-6
    end do
  end do
  print *, sum(b), sum(u), sum(w), sum(a)
  big = 1
  big(1:20000:7) = 3
  call smooth(1000, a, b)
  call smooth(20000, big, big2)
  print *, sum(a), sum(b), sum(big), sum(big2)
contains
  real function f(x)
    real, intent(in) :: x
    integer :: k
    real :: s
    s = 0
    do k = 1, 100
      s = s + x * k
    end do
    f = mod(s, 17.0)
  end function f
end program profit

subroutine smooth(n, x, y)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: x(n), y(n)
  integer :: i, t
  do i = 1, n
    x(i) = x(i) * 0.5
  end do
  do t = 1, 3
    do i = 2, n - 1
      y(i) = (x(i - 1) + x(i + 1)) / 2
    end do
    do i = 2, n - 1
      x(i) = y(i)
    end do
  end do
end subroutine smooth
