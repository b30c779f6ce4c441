! Loops that call procedures: a call whose callee does nothing its references
! do not show (no I/O but an error report before STOP, no STOP, SAVEd variable;
! every COMMON or module variable it touches named by the caller) is judged by them.
module work
  real :: shared_t
end module work

program calls
  use work
  real :: a(100), b(100), c(100), d(100), r(3)
  real :: t
  common /cc/ t
  integer :: i
  do i = 1, 100
    a(i) = real(mod(7 * i, 13))
  end do
  ! A function reading its argument: parallel.
  do i = 1, 100
    b(i) = twice(a(i))
  end do
  ! A subroutine given elements for scalar dummies: parallel.
  do i = 1, 100
    call square(a(i), c(i))
  end do
  ! An element for an array dummy: the callee reaches the next element.
  do i = 1, 99
    call pair(b(i))
  end do
  ! A callee with a SAVEd counter: excluded.
  do i = 1, 100
    call counted(d(i))
  end do
  ! A callee that prints: excluded.
  do i = 1, 3
    call show(a(i))
  end do
  ! A callee writing a module variable the loop names: sequential.
  do i = 1, 100
    call through(a(i), c(i))
  end do
  ! T is written before the call reads it from COMMON in every iteration:
  ! it cannot be private, since the callee sees the shared one.
  do i = 1, 100
    t = a(i) + 1.0
    call uset(d(i))
  end do
  ! An intrinsic subroutine with a state of its own: excluded.
  do i = 1, 3
    call random_number(r(i))
  end do
  ! A callee that reports bad input and stops: judged by its references.
  do i = 1, 100
    call checked(a(i), d(i))
  end do
  ! A call no iteration makes excludes nothing.
  do i = 1, 5
    if (i .gt. 10) call show(a(i))
    c(i) = a(i) + 1.0
  end do
  print *, sum(a), sum(b), sum(c), sum(d), shared_t, t
contains
  real function twice(x)
    real, intent(in) :: x
    twice = 2.0 * x + 1.0
  end function twice
end program calls

subroutine square(x, y)
  real :: x, y
  y = x * x
end subroutine square

subroutine pair(v)
  real :: v(2)
  v(2) = v(1) + 1.0
end subroutine pair

subroutine counted(x)
  real :: x
  integer, save :: n = 0
  n = n + 1
  x = real(n)
end subroutine counted

subroutine show(x)
  real :: x
  print *, x
end subroutine show

subroutine through(x, y)
  use work
  real :: x, y
  shared_t = x
  y = shared_t + 1.0
end subroutine through

subroutine checked(x, y)
  real :: x, y
  if (x .lt. 0.0) then
    write (*, *) 'negative', x
    stop
  end if
  y = sqrt(x)
end subroutine checked

subroutine uset(y)
  real :: y, t
  common /cc/ t
  y = t * 2.0
end subroutine uset
