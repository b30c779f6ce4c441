! A generic name whose specifics do different things: the arguments'
! types decide which one a call calls, and so what the call touches.
module bumps
  implicit none
  integer :: last = 0
  interface bump
    module procedure bump_d, bump_i
  end interface bump
contains
  subroutine bump_d(v)
    double precision, intent(inout) :: v
    v = v * 2
  end subroutine bump_d
  subroutine bump_i(v)
    integer, intent(inout) :: v
    v = v + 1
    last = v
  end subroutine bump_i
end module bumps

program generic
  use bumps
  implicit none
  integer :: i, k(100)
  double precision :: a(100)
  do i = 1, 100
    a(i) = i
    k(i) = i
  end do
  do i = 1, 100
    call bump(a(i))
  end do
  do i = 1, 100
    call bump(k(i))
  end do
  print *, sum(a), sum(k), last
end program generic
