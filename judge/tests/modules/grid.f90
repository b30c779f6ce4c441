module grid
  implicit none
  integer, parameter :: n = 6
  integer :: nx = 4
  real :: a(n), s = 2.0
  real, allocatable :: u(:, :)
contains
  subroutine init(m)
    integer :: m, i, j
    allocate(u(m, 0:nx))
    do j = 0, nx
      do i = 1, m
        u(i, j) = real(i + 10 * j)
      end do
    end do
    do i = 1, n
      a(i) = s * i
    end do
  end subroutine init
end module grid
subroutine bump(k)
  use grid, only: a, width => nx, u
  implicit none
  integer :: k
  a(k) = a(k) + u(1, width)
end subroutine bump
program main
  use grid
  implicit none
  integer :: i, m
  real :: t
  real, allocatable :: w(:)
  read *, m
  call init(m)
  allocate(w(m))
  do i = 1, m
    w(i) = u(i, 1)
  end do
  t = 0.0
  do i = 2, n
    call bump(i)
    t = t + a(i - 1)
  end do
  call inner(3)
  print *, sum(a), sum(u), sum(w), t, nx, s, size(u), lbound(u, 2)
  deallocate(w)
  allocate(w(0:2))
  w = 1.0
  print *, sum(w), size(w)
contains
  subroutine inner(k)
    integer :: k
    w(k) = w(k) + t
    u(k, 0) = t
    t = t + 1.0
  end subroutine inner
end program main
